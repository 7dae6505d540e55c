// What the console's order page shows beside the order itself: its customer, the visitor mails
// sent for it, and the scans of its barcodes. Call only for an order the caller may see
// (getOrder first): these reads do not check scope again.
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { customers } from '../../db/schema/index.ts';

export async function orderCustomer(db: DbOrTx, customerId: number | null) {
  if (customerId === null) return null;
  const [c] = await db.select({ id: customers.id, name: customers.name, surname: customers.surname, email: customers.email, locale: customers.locale }).from(customers).where(eq(customers.id, customerId));
  return c ?? null;
}

export async function orderMails(db: DbOrTx, orderId: number) {
  const r = await db.execute<{ id: number; kind: string; recipient: string; status: string; created_at: string; sent_at: string | null; last_error: string | null }>(sql`
    select m.id, m.kind, m.recipient, m.status, m.created_at, m.sent_at, m.last_error
      from mail_messages m join outbox_events e on e.id = m.event_id
     where e.subject_type = 'order' and e.subject_id = ${orderId}
     order by m.id desc limit 50`);
  return r.rows.map((m) => ({ ...m, created_at: new Date(m.created_at), sent_at: m.sent_at ? new Date(m.sent_at) : null }));
}

export async function orderScans(db: DbOrTx, orderId: number) {
  const r = await db.execute<{ id: number; barcode: string; direction: string; result: string; scanned_at: string; people_count: number }>(sql`
    select id, barcode, direction, result, scanned_at, people_count from scans where order_id = ${orderId} order by scanned_at desc limit 100`);
  return r.rows.map((s) => ({ ...s, scanned_at: new Date(s.scanned_at) }));
}
