// Order records as JSON (go~mus shapes): instants in ISO 8601; item start times in the museum's
// zone, bookkeeping times in the instance zone. Shared by the routes and the events' payloads
// (events/render.ts), so a webhook and a GET never disagree.
import type { OrderItemView, OrderView } from './internal.ts';
import { isoInZone } from '../time.ts';

const iso = (d: Date | null, zone: string) => (d ? isoInZone(d, zone) : null);

/**
 * A sold card or voucher as its order shows it: id, last four characters and the PDF's address,
 * read with the order token like the order's ticket links (never the code itself).
 */
export const soldCodePdfPath = (o: { id: number; token: string }, c: { kind: 'gift_card' | 'voucher'; id: number }) =>
  `/api/v4/orders/${o.id}/${c.kind === 'gift_card' ? 'gift_cards' : 'vouchers'}/${c.id}.pdf?token=${encodeURIComponent(o.token)}`;

function codeAttributes(i: OrderItemView, o: { id: number; token: string }) {
  const sold = (i.codes ?? []).map((c) => ({ id: c.id, code_last4: c.last4, status: c.status, pdf_url: soldCodePdfPath(o, c) }));
  const common = { language: i.codeLanguage, recipient: i.codeRecipient };
  return i.type === 'GiftCard'
    ? { ...common, amount_cents: i.unitPriceCents, gift_cards: sold }
    : { ...common, ticket_id: i.voucherTicketId!, vouchers: sold };
}

function item(i: OrderItemView, o: { id: number; token: string }) {
  const barcodes = i.barcodes.map((b) => ({ id: b.id, barcode: b.code, status: b.status }));
  const common = { id: i.id, quantity: i.quantity, start_time: isoInZone(i.startAt, i.zone), barcodes };
  const attributes =
    i.type === 'GiftCard' || i.type === 'Voucher'
      ? { ...common, ...codeAttributes(i, o) }
      : i.type === 'Ticket'
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
    items: o.items.map((i) => item(i, o)),
    // Produced in the background once finalized (documents area); fetch via /documents/:id/download.
    documents: o.documents.map((d) => ({ id: d.id, kind: d.kind, status: d.status, filename: d.filename })),
    // What each promo code or voucher took off which item (docs/vouchers.md).
    discounts: (o.discounts ?? []).map((d) => ({ code: d.code, amount_cents: d.amountCents, item_id: d.orderItemId })),
  };
}
