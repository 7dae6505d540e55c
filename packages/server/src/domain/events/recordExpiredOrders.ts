// Job verb (with the periodic sweep, src/jobs/worker.ts): records `order.expired` for pending
// orders whose time ran out. An order expires by the clock alone (statusAt in
// domain/orders/internal.ts), with no write to observe, so the event is written here, shortly
// after. The orders are found through their still-unreleased temporary allocations: this runs
// right before the sweep that releases them, and the sweep waits 5 minutes past expiry, so every
// expired order is seen at least once; repeated runs record nothing new.
import { insertOrderExpiredEvents } from '../../db/repositories/events.ts';
import type { Ctx } from '../context.ts';

/** Clock differences between nodes: an order is reported once it is surely expired everywhere. */
const GRACE_MS = 60_000;

export async function recordExpiredOrders(ctx: Ctx): Promise<number> {
  return insertOrderExpiredEvents(ctx.db, new Date(ctx.clock.now().getTime() - GRACE_MS));
}
