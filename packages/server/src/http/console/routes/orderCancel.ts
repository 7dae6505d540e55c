// Cancelling items of an order in the console, whole or some of their quantity, in two steps: the
// order page's form posts here and gets a confirmation page saying which tickets go and what would
// be refunded (previewCancellation); only its "confirm" button (confirm=1) cancels. The
// cancellation is the API's verb (capacity freed once, barcodes void, credit note queued); what was
// paid for the cancelled part then goes back through the payments refund verb.
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { invalid, notFound } from '../../../domain/errors.ts';
import { previewCancellation } from '../../../domain/orders/cancellationPreview.ts';
import { cancelOrder } from '../../../domain/orders/cancelOrder.ts';
import { getOrder } from '../../../domain/orders/getOrder.ts';
import { refundAfterCancellation } from '../../../domain/payments/refunds.ts';
import { ticketTitles } from '../../../domain/staff/labels.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { renderPage, seeOther } from './render.ts';

type Part = { item_id: number; quantity: number };

/**
 * The units to cancel from the form: `item` (repeated) names whole items, `qty_<item id>` a number
 * of units of one item (0 or empty: none). Whole items are taken at their full quantity.
 */
function partsOf(body: unknown, quantities: Map<number, number>): Part[] {
  const b = (body ?? {}) as Record<string, unknown>;
  const out = new Map<number, number>();
  for (const raw of [b.item ?? []].flat()) {
    const id = intParam(raw);
    if (id === null) throw invalid('select at least one item to cancel');
    out.set(id, quantities.get(id) ?? 0);
  }
  for (const key of Object.keys(b)) {
    const m = /^qty_(\d{1,9})$/.exec(key);
    if (!m) continue;
    const text = field(b, key, 9);
    if (text === '' || text === '0') continue;
    const n = intParam(text);
    if (n === null) throw invalid(`quantity of item ${m[1]} must be a whole number`);
    if (!out.has(Number(m[1]))) out.set(Number(m[1]), n);
  }
  const parts = [...out].map(([item_id, quantity]) => ({ item_id, quantity }));
  if (parts.length === 0) throw invalid('select at least one item to cancel');
  return parts;
}

export const orderCancelPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'POST', url: '/orders/:id/cancel', action: 'orders.cancel' }, async (req, reply) => {
    const idNum = intParam((req.params as { id?: string }).id);
    if (idNum === null) throw notFound('order');
    const id = String(idNum);
    const ctx = req.staffCtx;
    const before = await getOrder(ctx, id);
    const parts = partsOf(req.body, new Map(before.items.map((i) => [i.id, i.quantity])));
    if (field(req.body, 'confirm', 1) !== '1') {
      const preview = await previewCancellation(ctx, id, parts);
      const titles = await ticketTitles(ctx.db, before.items.flatMap((i) => (i.ticketId ? [i.ticketId] : [])), req.consoleLocale);
      const labels = new Map(before.items.map((i) => [i.id, (i.ticketId && titles.get(i.ticketId)) || i.type]));
      return renderPage(req, reply, 'orders/cancel', {
        title: translator(req.consoleLocale)('orders.cancel.confirm.title', { id: before.id }), order: before, preview, labels,
      });
    }
    await audited(ctx, (c) => cancelOrder(c, id, { parts }), (o) => ({
      action: 'order.cancel_items', entityType: 'order', entityId: o.id, museumId: o.museumIds[0] ?? null,
      before: { status: before.status, active_item_ids: before.items.filter((i) => i.status === 'active').map((i) => i.id), total_cents: before.totalPriceCents },
      after: { status: o.status, cancelled: parts, total_cents: o.totalPriceCents },
    }));
    const refunds = await refundAfterCancellation(ctx, paymentProviders(ctx.config), id);
    const failed = refunds.some((r) => r.state !== 'done');
    return seeOther(reply, `/console/orders/${id}`, failed ? 'refundfailed' : refunds.length ? 'cancelledrefunded' : 'cancelled');
  });
};
