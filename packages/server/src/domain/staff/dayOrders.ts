// The orders behind a day (or behind a closure) as the front desk speaks of them: time of visit,
// who (customer, partner), how many people, and whether the order is cancelled or shut by a
// closure of that day. A cancelled order or one a closure hits stays on the list with a notice,
// because that is the visitor the desk has to call.
import { ordersVisitingBetween, ordersVisitingByIds, type OrderByVisitRow } from '../../db/repositories/dayOrders.ts';
import { closureInZone } from '../../db/repositories/schedules/closures.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';
import { affectedItems } from '../schedules/affected.ts';
import { spanOf } from '../schedules/closureView.ts';

export interface DayOrder {
  id: number;
  status: string;
  start: Date;
  people: number;
  cancelledItems: number;
  customer: string | null;
  reference: string | null;
  partner: string | null;
  zone: string;
  /** A closure of the day shuts items of this (live) order. */
  closed: boolean;
}

const view = (r: OrderByVisitRow, closed: Set<number>): DayOrder => ({
  id: r.id, status: r.status, start: r.start_at, people: r.people, cancelledItems: r.cancelled_items,
  customer: r.customer, reference: r.reference, partner: r.partner, zone: r.zone, closed: closed.has(r.id),
});

/** Orders of the museum that the given closures shut now (the closures' own affected rule). */
async function shutBy(ctx: Ctx, museumId: number, closureIds: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const id of closureIds) {
    const r = await closureInZone(ctx.db, id);
    if (!r || r.c.museumId !== museumId) continue;
    for (const item of await affectedItems(ctx.db, museumId, r.zone, spanOf(r.c), ctx.clock.now())) out.add(item.orderId);
  }
  return out;
}

/** Finalized and cancelled orders visiting the museum in [from, to), with the day's closures marked. */
export async function dayOrders(ctx: Ctx, museumId: number, from: Date, to: Date, closureIds: number[]): Promise<DayOrder[]> {
  if (!inMuseumScope(ctx.principal, museumId)) return [];
  const [rows, closed] = await Promise.all([ordersVisitingBetween(ctx.db, museumId, from, to), shutBy(ctx, museumId, closureIds)]);
  return rows.map((r) => view(r, closed));
}

/** The named orders of the museum (a closure preview's), with who and when. */
export async function ordersNamed(ctx: Ctx, museumId: number, orderIds: number[]): Promise<DayOrder[]> {
  if (!inMuseumScope(ctx.principal, museumId)) return [];
  return (await ordersVisitingByIds(ctx.db, museumId, orderIds)).map((r) => view(r, new Set(orderIds)));
}
