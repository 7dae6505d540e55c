// Order records as JSON (go~mus shapes): instants in ISO 8601; item start times in the museum's
// zone, bookkeeping times in the instance zone. Shared by the routes and the events' payloads
// (events/render.ts), so a webhook and a GET never disagree.
import type { OrderItemView, OrderView } from './internal.ts';
import { isoInZone } from '../time.ts';

const iso = (d: Date | null, zone: string) => (d ? isoInZone(d, zone) : null);

function item(i: OrderItemView) {
  const barcodes = i.barcodes.map((b) => ({ id: b.id, barcode: b.code, status: b.status }));
  const common = { id: i.id, quantity: i.quantity, start_time: isoInZone(i.startAt, i.zone), barcodes };
  const attributes =
    i.type === 'Ticket'
      ? { ...common, ticket_id: i.ticketId!, attendees: i.attendees ?? [] }
      : i.type === 'Event'
        ? { ...common, date_id: i.eventDateId!, event_id: i.eventId!, language_id: i.languageId }
        : { ...common, tour_id: i.tourId!, language_id: i.languageId, participants: i.quantity };
  return {
    id: i.id,
    type: i.type,
    status: i.status,
    price_cents: i.priceCents,
    unit_price_cents: i.unitPriceCents,
    vat_pct: i.vatPct,
    tax_included: i.taxIncluded,
    quantity: i.quantity,
    entries_used: i.entriesUsed,
    attributes,
  };
}

export function serializeOrder(o: OrderView, zone: string) {
  return {
    id: o.id,
    foreign_id: o.foreignId,
    token: o.token,
    status: o.status,
    is_valid: o.status === 'finalized',
    total_price_cents: o.totalPriceCents,
    currency: o.currency,
    source: o.source,
    customer_id: o.customerId,
    comment: o.comment,
    reference: o.reference,
    // go~mus's order fields: whether an invoice PDF exists (its link is /orders/:id/invoice.pdf),
    // and the rating Atrium does not collect.
    invoice: o.documents.some((d) => d.kind === 'invoice'),
    rating: null,
    created_at: iso(o.createdAt, zone)!,
    updated_at: iso(o.updatedAt, zone)!,
    finalized_at: iso(o.finalizedAt, zone),
    cancelled_at: iso(o.cancelledAt, zone),
    expires_at: o.status === 'pending' || o.status === 'expired' ? iso(o.expiresAt, zone) : null,
    items: o.items.map(item),
    // Produced in the background once finalized (documents area); fetch via /documents/:id/download.
    documents: o.documents.map((d) => ({ id: d.id, kind: d.kind, status: d.status, filename: d.filename })),
    // What each promo code or voucher took off which item (docs/vouchers.md).
    discounts: (o.discounts ?? []).map((d) => ({ code: d.code, amount_cents: d.amountCents, item_id: d.orderItemId })),
  };
}
