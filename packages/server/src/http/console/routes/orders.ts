// Orders pages: search, detail (items, documents, scans, mails), resend the confirmation, and
// document downloads for the signed-in user (cancelling: orderCancel.ts). Scope is the domain's: an order
// outside the user's museums is "not found", exactly as for an API token.
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { downloadDocument } from '../../../domain/documents/downloadDocument.ts';
import { contentDisposition } from '../../../domain/documents/filename.ts';
import { notFound } from '../../../domain/errors.ts';
import { getOrder } from '../../../domain/orders/getOrder.ts';
import { orderCustomer, orderMails, orderScans } from '../../../domain/orders/orderActivity.ts';
import { resendConfirmation } from '../../../domain/orders/resendConfirmation.ts';
import { searchOrders } from '../../../domain/orders/searchOrders.ts';
import { ticketTitles } from '../../../domain/staff/labels.ts';
import { roleMay } from '../../../domain/staff/permissions.ts';
import { translator } from '../i18n.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { paymentsSection } from './payments.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

function idOf(params: unknown): string {
  const id = intParam((params as { id?: string }).id);
  if (id === null) throw notFound('order');
  return String(id);
}

export const orderPages = (deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/orders', action: 'orders.view' }, async (req, reply) => {
    const q = field(req.query, 'q', 200);
    const hits = q ? await searchOrders(req.staffCtx, { q }) : null;
    return renderPage(req, reply, 'orders/index', { title: translator(req.consoleLocale)('orders.title'), q, hits });
  });

  consoleRoute(app, { method: 'GET', url: '/orders/:id', action: 'orders.view' }, async (req, reply) => {
    const order = await getOrder(req.staffCtx, idOf(req.params));
    const [customer, mails, scans, titles] = await Promise.all([
      orderCustomer(deps.db, order.customerId),
      orderMails(deps.db, order.id),
      orderScans(deps.db, order.id),
      ticketTitles(deps.db, order.items.flatMap((i) => (i.ticketId ? [i.ticketId] : [])), req.consoleLocale),
    ]);
    const payments = await paymentsSection(req.staffCtx, order.id);
    const role = req.session!.user.role;
    return renderPage(req, reply, 'orders/show', {
      title: translator(req.consoleLocale)('orders.order', { id: order.id }),
      order, customer, mails, scans, titles, payments,
      mayCancel: roleMay(role, 'orders.cancel'),
      mayResend: roleMay(role, 'orders.resend'),
    });
  });

  consoleRoute(app, { method: 'POST', url: '/orders/:id/resend', action: 'orders.resend' }, async (req, reply) => {
    const id = idOf(req.params);
    const order = await getOrder(req.staffCtx, id);
    await audited(req.staffCtx, (ctx) => resendConfirmation(ctx, id), (r) => ({
      action: 'order.resend_confirmation', entityType: 'order', entityId: r.orderId, museumId: order.museumIds[0] ?? null, after: { mail_id: r.mailId },
    }));
    return seeOther(reply, `/console/orders/${id}`, 'resent');
  });

  consoleRoute(app, { method: 'GET', url: '/documents/:id', action: 'orders.view' }, async (req, reply) => {
    const id = intParam((req.params as { id?: string }).id);
    if (id === null) throw notFound('document');
    const file = await downloadDocument(req.staffCtx, id);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.filename))
      .header('cache-control', 'private, no-store')
      .send(file.content);
  });
};
