// Partners in the console (engineer B, admins only): accounts and their tokens (a clear token is
// shown once, on creation or rotation, then only its last 4 characters), rotate and revoke. A
// scoped admin sees and manages only accounts confined to their museums (domain/partners).
// Webhooks of an account: webhooks.ts. Writes run with their audit entry in one transaction.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { reportMuseums } from '../../../domain/reports/range.ts';
import { tokenAccount } from '../../../domain/partners/scope.ts';
import { createPartner, listPartners, revokePartnerToken, rotatePartnerToken } from '../../../domain/partners/partners.ts';
import { notFound } from '../../../domain/errors.ts';
import { RIGHT_AREAS, type AccessClass } from '../../../domain/principal.ts';
import { translator } from '../i18n.ts';
import { idsOf, numberOf } from './formInput.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

const CLASSES: AccessClass[] = ['user', 'reseller', 'public', 'entry'];
/** Every right a staff API account can be given, in the order offered; labels: messages/rights.ts. */
const RIGHT_CHOICES = ['*', ...RIGHT_AREAS.flatMap((a) => [`${a}:read`, `${a}:write`])];
const museumOfAccount = (ids: number[]) => ids[0] ?? null;

/** The page that shows a secret once: never cached, never sent again. */
export function showSecretOnce(req: FastifyRequest, reply: FastifyReply, data: { heading: string; secret: string; back: string; note: string; label?: string }) {
  reply.header('cache-control', 'no-store');
  return renderPage(req, reply, 'partners/secret', { title: data.heading, ...data });
}

const idParam = (req: FastifyRequest) => {
  const id = intParam((req.params as { id: string }).id);
  if (id === null) throw notFound('token');
  return id;
};

export const partnerPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/partners', action: 'partners.view' }, async (req, reply) => {
    const [partners, museums] = await Promise.all([listPartners(req.staffCtx), reportMuseums(req.staffCtx, req.consoleLocale)]);
    return renderPage(req, reply, 'partners/index', {
      title: translator(req.consoleLocale)('partners.title'), partners, museums, classes: CLASSES,
      rights: RIGHT_CHOICES, scoped: req.staffCtx.principal.museumIds.length > 0,
    });
  });

  consoleRoute(app, { method: 'POST', url: '/partners', action: 'partners.edit' }, async (req, reply) => {
    const b = req.body;
    const cls = field(b, 'class', 20) as AccessClass;
    const given = (b as Record<string, unknown> | undefined)?.rights;
    const rights = (Array.isArray(given) ? given : given ? [given] : []).map(String).slice(0, 20);
    const rate = numberOf(b, 'rate_limit');
    const input = {
      class: cls, name: field(b, 'name', 200), museumIds: idsOf(b, 'museum_ids'),
      ...(cls === 'user' ? { rights } : {}),
      ...(cls === 'reseller' && rate !== undefined ? { rateLimitPerMinute: rate } : {}),
    };
    const created = await audited(req.staffCtx, (ctx) => createPartner(ctx, input), (r) => ({
      action: 'partner.create', entityType: 'account', entityId: r.accountId, museumId: museumOfAccount(input.museumIds),
      after: { ...input, token_id: r.tokenId, token_last4: r.last4 },
    }));
    const t = translator(req.consoleLocale);
    return showSecretOnce(req, reply, { heading: t('partners.created', { name: input.name }), secret: created.token, back: `/console/partners/${created.accountId}`, note: t('partners.token.once') });
  });

  consoleRoute(app, { method: 'POST', url: '/tokens/:id/rotate', action: 'partners.edit' }, async (req, reply) => {
    const tokenId = idParam(req);
    const overlap = numberOf(req.body, 'overlap_minutes');
    const input = { tokenId, ...(overlap !== undefined ? { overlapSeconds: overlap * 60 } : {}) };
    const r = await audited(req.staffCtx, (ctx) => rotatePartnerToken(ctx, input), (r) => ({
      action: 'token.rotate', entityType: 'token', entityId: tokenId, museumId: museumOfAccount(r.account.museumIds),
      after: { account_id: r.accountId, new_token_id: r.tokenId, new_token_last4: r.last4, old_token_ends_at: r.oldTokenEndsAt.toISOString() },
    }));
    const t = translator(req.consoleLocale);
    return showSecretOnce(req, reply, { heading: t('partners.rotated', { name: r.account.name }), secret: r.token, back: `/console/partners/${r.accountId}`, note: t('partners.token.once') });
  });

  consoleRoute(app, { method: 'POST', url: '/tokens/:id/revoke', action: 'partners.edit' }, async (req, reply) => {
    const tokenId = idParam(req);
    // A second page first: revoking cuts the partner off at once and cannot be undone.
    if (field(req.body, 'confirm', 1) !== '1') {
      const account = await tokenAccount(req.staffCtx, tokenId);
      const t = translator(req.consoleLocale);
      return renderPage(req, reply, 'confirm', {
        title: t('partners.revoke.confirm.title'), text: t('partners.revoke.confirm.text', { name: account.name, id: tokenId }),
        action: `/console/tokens/${tokenId}/revoke`, button: t('partners.revoke.confirm.button'), back: `/console/partners/${account.id}`,
      });
    }
    const r = await audited(req.staffCtx, (ctx) => revokePartnerToken(ctx, { tokenId }), (r) => ({
      action: 'token.revoke', entityType: 'token', entityId: tokenId, museumId: museumOfAccount(r.account.museumIds),
    }));
    return seeOther(reply, `/console/partners/${r.account.id}`, 'tokenrevoked');
  });
};
