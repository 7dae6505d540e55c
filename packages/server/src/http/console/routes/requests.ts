// The requests inbox: pending group requests first; accept (books the order through the
// requests domain) or decline with a reason. Both are audited in the verb's transaction.
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { notFound } from '../../../domain/errors.ts';
import { acceptRequest } from '../../../domain/requests/acceptRequest.ts';
import { declineRequest } from '../../../domain/requests/declineRequest.ts';
import type { RequestStatus } from '../../../domain/requests/internal.ts';
import { listRequests } from '../../../domain/requests/listRequests.ts';
import { tourTitles } from '../../../domain/staff/labels.ts';
import { roleMay } from '../../../domain/staff/permissions.ts';
import { translator } from '../i18n.ts';
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
