// The requests inbox: pending group requests first; accept (books the order through the
// requests domain, after a confirmation page) or decline with a reason. Both are audited in the verb's transaction.
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { notFound } from '../../../domain/errors.ts';
import { acceptRequest } from '../../../domain/requests/acceptRequest.ts';
import { getRequest } from '../../../domain/requests/getRequest.ts';
import { declineRequest } from '../../../domain/requests/declineRequest.ts';
import type { RequestStatus } from '../../../domain/requests/internal.ts';
import { listRequests } from '../../../domain/requests/listRequests.ts';
import { tourTitles } from '../../../domain/staff/labels.ts';
import { roleMay } from '../../../domain/staff/permissions.ts';
import { formatters, translator } from '../i18n.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

const STATUSES: RequestStatus[] = ['pending', 'accepted', 'declined', 'withdrawn'];

function idOf(params: unknown): number {
  const id = intParam((params as { id?: string }).id);
  if (id === null) throw notFound('request');
  return id;
}

export const requestPages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/requests', action: 'requests.view' }, async (req, reply) => {
    const s = field(req.query, 'status', 12) || 'pending';
    const status = STATUSES.find((x) => x === s);
    const { requests, total } = await listRequests(req.staffCtx, { ...(status ? { status } : {}), per_page: 100 });
    const titles = await tourTitles(deps.db, requests.flatMap((r) => r.items.map((i) => i.tourId)), req.consoleLocale);
    return renderPage(req, reply, 'requests', {
      title: translator(req.consoleLocale)('requests.title'),
      requests: [...requests].reverse(), total, status: status ?? 'all', statuses: STATUSES, titles,
      mayDecide: roleMay(req.session!.user.role, 'requests.decide'),
    });
  });

  consoleRoute(app, { method: 'POST', url: '/requests/:id/accept', action: 'requests.decide' }, async (req, reply) => {
    const id = idOf(req.params);
    // A second page first: accepting books an order and answers the requester; it cannot be
    // taken back here. A request that is no longer pending goes on to the verb's own refusal.
    const r = await getRequest(req.staffCtx, id);
    if (field(req.body, 'confirm', 1) !== '1' && r.status === 'pending') {
      const t = translator(req.consoleLocale);
      const fmt = formatters(req.consoleLocale);
      const titles = await tourTitles(deps.db, r.items.map((i) => i.tourId), req.consoleLocale);
      const tours = r.items.map((i) => `${titles.get(i.tourId) ?? `#${i.tourId}`} ${fmt.time(i.startAt, i.zone)}`).join(', ');
      const c = (r.contact ?? {}) as { name?: string; surname?: string };
      return renderPage(req, reply, 'confirm', {
        title: t('requests.accept.confirm.title', { id }),
        text: t('requests.accept.confirm.text', { date: fmt.day(r.date), tours, participants: r.participants, contact: [c.name, c.surname].filter(Boolean).join(' ') || '—' }),
        action: `/console/requests/${id}/accept`, button: t('requests.accept.confirm.button'), back: '/console/requests',
      });
    }
    await audited(req.staffCtx, (ctx) => acceptRequest(ctx, id), (r) => ({
      action: 'request.accept', entityType: 'request', entityId: r.id, museumId: r.museumIds[0] ?? null,
      before: { status: 'pending' }, after: { status: r.status, order_id: r.orderId },
    }));
    return seeOther(reply, '/console/requests', 'accepted');
  });

  consoleRoute(app, { method: 'POST', url: '/requests/:id/decline', action: 'requests.decide' }, async (req, reply) => {
    const id = idOf(req.params);
    const reason = field(req.body, 'reason', 1000);
    await audited(req.staffCtx, (ctx) => declineRequest(ctx, id, { reason: reason || null }), (r) => ({
      action: 'request.decline', entityType: 'request', entityId: r.id, museumId: r.museumIds[0] ?? null,
      before: { status: 'pending' }, after: { status: r.status, reason: r.declineReason },
    }));
    return seeOther(reply, '/console/requests', 'declined');
  });
};
