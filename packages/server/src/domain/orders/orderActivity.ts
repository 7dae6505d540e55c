// What the console's order page shows beside the order itself: its customer, the visitor mails
// sent for it, and the scans of its barcodes. Call only for an order the caller may see
// (getOrder first): these reads do not check scope again.
import type { DbOrTx } from '../../db/client.ts';
import { customerOfOrder, mailsOfOrder, scansOfOrder } from '../../db/repositories/ordersQuery.ts';

export async function orderCustomer(db: DbOrTx, customerId: number | null) {
  if (customerId === null) return null;
  return customerOfOrder(db, customerId);
}

export async function orderMails(db: DbOrTx, orderId: number) {
  const rows = await mailsOfOrder(db, orderId);
  return rows.map((m) => ({ ...m, created_at: new Date(m.created_at), sent_at: m.sent_at ? new Date(m.sent_at) : null }));
}

export async function orderScans(db: DbOrTx, orderId: number) {
  const rows = await scansOfOrder(db, orderId);
  return rows.map((s) => ({ ...s, scanned_at: new Date(s.scanned_at) }));
}
