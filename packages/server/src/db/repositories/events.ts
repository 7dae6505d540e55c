// Statements on the outbox (docs/adr/0018-outbox-webhooks-mail.md): events are rows written with
// the caller's handle, so they commit or roll back with the change they report.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { outboxEvents } from '../schema/index.ts';

export type NewEvent = typeof outboxEvents.$inferInsert;

export async function insertEvent(db: DbOrTx, event: NewEvent): Promise<void> {
  await db.insert(outboxEvents).values(event);
}

/**
 * Records `order.expired` for pending orders that expired at or before `before` and still have
 * unreleased temporary allocations (found through the small partial index
 * capacity_allocations_temporary). The partial unique index outbox_events_order_expired_once
 * makes repeated runs record nothing new. Returns how many were recorded.
 */
export async function insertOrderExpiredEvents(db: DbOrTx, before: Date): Promise<number> {
  const r = await db.execute(sql`
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
