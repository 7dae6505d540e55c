// Job verb (with the periodic sweep, src/jobs/worker.ts): records `order.expired` for pending
// orders whose time ran out. An order expires by the clock alone (statusAt in
// domain/orders/internal.ts), with no write to observe, so the event is written here, shortly
// after. The orders are found through their still-unreleased temporary allocations (the small
// partial index capacity_allocations_temporary): this runs right before the sweep that releases
// them, and the sweep waits 5 minutes past expiry, so every expired order is seen at least once.
// The partial unique index outbox_events_order_expired_once makes repeated runs record nothing new.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';

/** Clock differences between nodes: an order is reported once it is surely expired everywhere. */
const GRACE_MS = 60_000;

export async function recordExpiredOrders(ctx: Ctx): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - GRACE_MS);
  const r = await ctx.db.execute(sql`
    insert into outbox_events (type, account_id, museum_ids, subject_type, subject_id, created_at)
    select 'order.expired', o.account_id, o.museum_ids, 'order', o.id, o.expires_at
      from orders o
     where o.id in (select oi.order_id
                      from capacity_allocations a join order_items oi on oi.id = a.order_item_id
                     where a.released_at is null and a.expires_at is not null and a.expires_at <= ${before})
       and o.status = 'pending' and o.expires_at <= ${before}
    on conflict (subject_id) where type = 'order.expired' do nothing`);
  return r.rowCount ?? 0;
}
