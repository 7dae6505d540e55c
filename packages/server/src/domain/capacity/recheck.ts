// Asks the sellability rule again about items placed earlier (POST /orders/:id/finalize): a
// pending order is not sold yet, and the museum may have changed its opening hours (weekly,
// seasons, exceptions) or closed since it was placed (docs/adr/0013-sellability-rule.md,
// "Changed"). The question is the one resolve.ts asks for a new claim (same Sale builders, same
// rule); only the start comes from the stored item instead of the request.
import type { DbOrTx } from '../../db/client.ts';
import { activeItemStarts } from '../../db/repositories/orders.ts';
import type { Ctx } from '../context.ts';
import { closedReason } from '../schedules/rule.ts';
import { scheduleOf, type Schedule } from '../schedules/schedule.ts';
import { localDateOf } from '../time.ts';
import { eventDateById, ticketById, tourById } from './catalog.ts';
import { ticketQuotasOn } from './quotas.ts';
import { eventSale, ticketSale, tourSale, type Sale } from './resolve.ts';

type Memo = Pick<Ctx, 'masterData'>;
type Item = { ticketId: number | null; eventDateId: number | null; tourId: number | null; startAt: Date };

/** The rule's question for a stored item, or null when its product is gone (nothing to ask). */
async function saleOfItem(ctx: Memo, db: DbOrTx, i: Item): Promise<Sale | null> {
  if (i.ticketId !== null) {
    const t = await ticketById(ctx, db, i.ticketId);
    if (!t) return null;
    const date = localDateOf(i.startAt, t.zone);
    const qs = (await ticketQuotasOn(ctx, db, [t.id], date)).get(t.id) ?? [];
    return ticketSale(t, qs.map((q) => q.quotaId), { date, slot: i.startAt });
  }
  if (i.eventDateId !== null) {
    const r = await eventDateById(ctx, db, i.eventDateId);
    return r && eventSale(r);
  }
  if (i.tourId !== null) {
    const t = await tourById(ctx, db, i.tourId);
    return t && tourSale(t, i.startAt);
  }
  return null;
}

/**
 * Why an active item of the order can no longer be sold, or null. The schedule is read from
 * `db`, never from the process memo: the caller holds the museums' schedule locks (shared), so
 * the schedule read is the one committed before them, and a change of hours or a closure waits
 * for the caller's commit. Catalogue rows (ticket, quotas, dates, tours) may come from the memo,
 * as for any booking.
 */
export async function placedItemsClosedReason(ctx: Memo, db: DbOrTx, orderId: number): Promise<string | null> {
  const items = await activeItemStarts(db, orderId);
  const schedules = new Map<number, Schedule | null>();
  for (const item of items) {
    const sale = await saleOfItem(ctx, db, item);
    if (!sale) continue;
    if (!schedules.has(sale.museumId)) schedules.set(sale.museumId, await scheduleOf({}, db, sale.museumId));
    const s = schedules.get(sale.museumId);
    const why = s ? closedReason(s, sale.target, sale.mode, sale.start, sale.end) : null;
    if (why !== null) return why;
  }
  return null;
}
