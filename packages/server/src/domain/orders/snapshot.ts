// An order as it was when its event happened (src/db/sql/order_snapshot.sql, copied into the
// event by a trigger when the recording transaction commits), turned into the same OrderView
// that GET /orders/:id serializes: the rows go through rowFromJson like order_place's answer,
// statuses through the orders' and documents' own statusAt rules, evaluated at the event's time.
import { rowFromJson } from '../../db/json.ts';
import { orderItems, orders } from '../../db/schema/index.ts';
import { documentViewsFromJson, type DocumentJson } from '../documents/internal.ts';
import { statusAt, type OrderView, type SoldCode } from './internal.ts';
import { voucherLabel } from '../vouchers/applied.ts';

interface OrderSnapshot {
  order: Record<string, unknown>;
  items: Array<{
    row: Record<string, unknown>;
    zone: string;
    event_id: number | null;
    barcodes: Array<{ id: number; code: string; status: string }>;
    entries_used: number | string;
    /** GiftCard and Voucher lines: what they sold (absent in events recorded before). */
    codes?: SoldCode[] | null;
  }>;
  documents: DocumentJson[];
  /** Absent in events recorded before discounts were kept. */
  discounts?: Array<{ promo_code: string | null; voucher_last4: string | null; amount_cents: number; order_item_id: number }>;
}

export function orderViewFromSnapshot(snapshot: unknown, at: Date): OrderView {
  const s = snapshot as OrderSnapshot;
  const order = rowFromJson(orders, s.order);
  return {
    ...order,
    status: statusAt(order, at),
    documents: documentViewsFromJson(s.documents, at),
    discounts: (s.discounts ?? []).map((d) => ({ code: d.promo_code ?? voucherLabel(d.voucher_last4 ?? ''), amountCents: d.amount_cents, orderItemId: d.order_item_id })),
    items: s.items.map((i) => ({
      ...rowFromJson(orderItems, i.row),
      zone: i.zone,
      eventId: i.event_id,
      barcodes: i.barcodes,
      entriesUsed: Number(i.entries_used),
      ...(i.codes ? { codes: i.codes } : {}),
    })),
  };
}
