// A partner account's page in the console (engineer B, admins only): its tokens and its webhook
// endpoints, deliveries with every attempt, retry and test. The webhook verbs manage the
// caller's own endpoints, so they run acting as the partner account (partners/scope.ts,
// actingAs) after the console's scope check; the signing secret is shown once on creation.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { notFound } from '../../../domain/errors.ts';
import { EVENT_TYPES } from '../../../domain/events/record.ts';
import { partnerDetail } from '../../../domain/partners/partners.ts';
import { actingAs, partnerAccount } from '../../../domain/partners/scope.ts';
import type { StaffCtx } from '../../../domain/staff/principal.ts';
import { createWebhook } from '../../../domain/webhooks/createWebhook.ts';
import { listDeliveries, retryDelivery, testWebhook } from '../../../domain/webhooks/deliveries.ts';
import { deleteWebhook, getWebhook, listWebhooks } from '../../../domain/webhooks/manageWebhooks.ts';
import { translator } from '../i18n.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { showSecretOnce } from './partners.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

function ids(req: FastifyRequest) {
  const p = req.params as Record<string, string>;
  const out = { id: intParam(p.id), wid: p.wid === undefined ? 0 : intParam(p.wid), did: p.did === undefined ? 0 : intParam(p.did) };
  if (out.id === null || out.wid === null || out.did === null) throw notFound('page');
  return out as { id: number; wid: number; did: number };
}

/** The partner account (scope-checked) and a context acting as it, on the same db. */
async function asPartner(ctx: StaffCtx, accountId: number) {
  const account = await partnerAccount(ctx, accountId);
  return { account, as: (c: StaffCtx) => actingAs(c, account) };
}

export const webhookPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/partners/:id', action: 'partners.view' }, async (req, reply) => {
    const { id } = ids(req);
    const { account, tokens } = await partnerDetail(req.staffCtx, id);
    const canHook = account.class === 'user' || account.class === 'reseller';
    const hooks = canHook ? (await listWebhooks(actingAs(req.staffCtx, account), { per_page: 100 })).webhooks : [];
    return renderPage(req, reply, 'partners/account', { title: account.name, account, tokens, hooks, canHook, eventTypes: EVENT_TYPES, zone: req.staffCtx.config.zone });
  });

  consoleRoute(app, { method: 'POST', url: '/partners/:id/webhooks', action: 'partners.edit' }, async (req, reply) => {
    const { id } = ids(req);
    const { account, as } = await asPartner(req.staffCtx, id);
    const given = (req.body as Record<string, unknown> | undefined)?.events;
    const input = { url: field(req.body, 'url', 2000), events: (Array.isArray(given) ? given : given ? [given] : []).map(String).slice(0, 50), description: field(req.body, 'description', 500) || null };
    const r = await audited(req.staffCtx, (ctx) => createWebhook(as(ctx), input), (r) => ({
      action: 'webhook.create', entityType: 'webhook', entityId: r.webhook.id, museumId: account.museumIds[0] ?? null,
      after: { account_id: account.id, url: r.webhook.url, events: r.webhook.events, secret_last4: r.webhook.secretLast4 },
    }));
    const t = translator(req.consoleLocale);
    return showSecretOnce(req, reply, { heading: t('webhooks.created', { url: r.webhook.url }), secret: r.secret, back: `/console/partners/${id}`, note: t('webhooks.secret.once') });
  });

  consoleRoute(app, { method: 'GET', url: '/partners/:id/webhooks/:wid', action: 'partners.view' }, async (req, reply) => {
    const { id, wid } = ids(req);
    const { account, as } = await asPartner(req.staffCtx, id);
    const [hook, list] = await Promise.all([getWebhook(as(req.staffCtx), wid), listDeliveries(as(req.staffCtx), wid, { per_page: 50 })]);
    return renderPage(req, reply, 'partners/deliveries', { title: hook.url, account, hook, deliveries: list.deliveries, zone: req.staffCtx.config.zone });
  });

  consoleRoute(app, { method: 'POST', url: '/partners/:id/webhooks/:wid/delete', action: 'partners.edit' }, async (req, reply) => {
    const { id, wid } = ids(req);
    const { account, as } = await asPartner(req.staffCtx, id);
    const before = await getWebhook(as(req.staffCtx), wid);
    await audited(req.staffCtx, (ctx) => deleteWebhook(as(ctx), wid), () => ({
      action: 'webhook.delete', entityType: 'webhook', entityId: wid, museumId: account.museumIds[0] ?? null,
      before: { account_id: account.id, url: before.url, events: before.events },
    }));
    return seeOther(reply, `/console/partners/${id}`, 'webhookdeleted');
  });

  consoleRoute(app, { method: 'POST', url: '/partners/:id/webhooks/:wid/test', action: 'partners.edit' }, async (req, reply) => {
    const { id, wid } = ids(req);
    const { account, as } = await asPartner(req.staffCtx, id);
    await audited(req.staffCtx, (ctx) => testWebhook(as(ctx), wid), (d) => ({
      action: 'webhook.test', entityType: 'webhook', entityId: wid, museumId: account.museumIds[0] ?? null, after: { delivery_id: d.id },
    }));
    return seeOther(reply, `/console/partners/${id}/webhooks/${wid}`, 'webhooktested');
  });

  consoleRoute(app, { method: 'POST', url: '/partners/:id/webhooks/:wid/deliveries/:did/retry', action: 'partners.edit' }, async (req, reply) => {
    const { id, wid, did } = ids(req);
    const { account, as } = await asPartner(req.staffCtx, id);
    await audited(req.staffCtx, (ctx) => retryDelivery(as(ctx), wid, did), () => ({
      action: 'webhook.retry', entityType: 'webhook_delivery', entityId: did, museumId: account.museumIds[0] ?? null,
    }));
    return seeOther(reply, `/console/partners/${id}/webhooks/${wid}`, 'deliveryretried');
  });
};
