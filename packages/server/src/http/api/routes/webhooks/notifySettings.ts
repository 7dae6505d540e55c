// GET|PUT /accounts/:id/notify_settings: an account's switch for visitor mail (docs/webhooks.md,
// "Email to visitors"); who may is decided by the domain verb (domain/webhooks/notifySettings.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { invalid } from '../../../../domain/errors.ts';
import { getNotifySettings, setNotifySettings, type NotifySettingsView } from '../../../../domain/webhooks/notifySettings.ts';
import { errorResponses } from '../../schemas/common.ts';
import { AccountParam, NotifySettingsEnvelope, NotifySettingsInput } from '../../schemas/webhooks.ts';

const read = tokenOnly(['user', 'reseller'], ['webhooks', 'read']);
const write = tokenOnly(['user', 'reseller'], ['webhooks', 'write']);
const tags = ['webhooks'];
const envelope = (s: NotifySettingsView) => ({ notify_settings: { account_id: s.accountId, mail_enabled: s.mailEnabled } });

async function strictBoolean(req: FastifyRequest) {
  const v = (req.body as Record<string, unknown> | null)?.mail_enabled;
  if (v !== undefined && typeof v !== 'boolean') throw invalid('notify settings could not be saved', ['Mail enabled must be true or false']);
}

export const notifySettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/accounts/:id/notify_settings',
    {
      config: { access: read, cache: 'live' },
      schema: { tags, summary: "An account's notification switches (visitor mail)", params: AccountParam, response: { 200: NotifySettingsEnvelope, ...errorResponses(401, 403, 404, 422) } },
    },
    async (req) => envelope(await getNotifySettings(req.ctx, req.params.id)),
  );

  app.put(
    '/accounts/:id/notify_settings',
    {
      config: { access: write, cache: 'live' },
      // Ajv coerces types for query strings (app.ts), which would turn a JSON null or "no" into
      // false here: a switch must be given as true or false, nothing else.
      preValidation: [unwrap('notify_settings'), strictBoolean],
      schema: {
        tags,
        summary: "Turn visitor mail for an account's orders and requests off or on",
        params: AccountParam,
        body: NotifySettingsInput,
        response: { 200: NotifySettingsEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req) => envelope(await setNotifySettings(req.ctx, req.params.id, req.body)),
  );
};
