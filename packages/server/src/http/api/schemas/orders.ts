// Order request and response schemas (docs/api-contract.md §7, go~mus field names). Request bodies may come
// wrapped as {"order": {...}}; the route unwraps them before validation (http/api/unwrap.ts).
import { Type } from 'typebox';
import { Id, ListMeta, Nullable, PageQuery } from './common.ts';
import { DocumentSummaryOut } from './documents.ts';

const Text = Type.String({ maxLength: 2000 });

const Attendee = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  surname: Type.Optional(Type.String({ maxLength: 200 })),
});

const ProductItemInput = Type.Object({
  type: Type.Union([Type.Literal('Ticket'), Type.Literal('Event'), Type.Literal('Tour')], {
    description: 'Ticket (attributes.id = ticket id), Event (attributes.id = date id) or Tour (tour id).',
  }),
  attributes: Type.Object({
    id: Id,
    quantity: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Tickets/seats, or tour participants.' }),
    time: Type.Optional(Type.String({ maxLength: 40, description: 'Ticket: slot start (ISO 8601); day tickets also accept a date.' })),
    start_time: Type.Optional(Type.String({ maxLength: 40, description: 'Tour: start time (ISO 8601).' })),
    language_id: Type.Optional(Id),
    reservations: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'Reservation tokens to consume.' })),
    attendees: Type.Optional(Type.Array(Attendee, { maxItems: 10_000 })),
  }),
});

const CodeLanguage = Type.Optional(Type.String({ minLength: 2, maxLength: 5, description: 'The PDF\'s language (de, en); default the instance\'s first.' }));
const Recipient = Type.Optional(Type.String({ maxLength: 200, description: 'Printed on the PDF ("For …").' }));

const GiftCardItemInput = Type.Object({
  type: Type.Literal('GiftCard', { description: 'Gift cards (multi-purpose vouchers): no VAT; sold in an order of their own (422 GIFT_CARD_MIXED otherwise).' }),
  attributes: Type.Object({
    amount_cents: Type.Integer({ minimum: 500, maximum: 50_000, description: 'The value of each card, 5.00 to 500.00.' }),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Cards of this value (default 1).' })),
    language: CodeLanguage,
    recipient: Recipient,
  }),
});

const VoucherItemInput = Type.Object({
  type: Type.Literal('Voucher', { description: 'Single-purpose vouchers: each one admission of the ticket, at its price and VAT rate.' }),
  attributes: Type.Object({
    ticket_id: Id,
    quantity: Type.Integer({ minimum: 1, maximum: 20 }),
    language: CodeLanguage,
    recipient: Recipient,
  }),
});

const ItemInput = Type.Union([ProductItemInput, GiftCardItemInput, VoucherItemInput], {
  description: 'An admission (Ticket, Event, Tour), or gift cards or single-purpose vouchers sold (GiftCard, Voucher; codes issued when the order is finalized).',
});

const CustomerRef = {
  customer: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'A new customer, as POST /customers.' })),
  customer_id: Type.Optional(Type.Union([Id, Type.String({ minLength: 1, maxLength: 255 })], { description: 'Existing customer id or foreign_id.' })),
};

export const CreateOrderBody = Type.Object(
  {
    foreign_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Your key; a repeat with the same content returns the existing order.' })),
    comment: Type.Optional(Text),
    reference: Type.Optional(Text),
    ...CustomerRef,
    items: Type.Array(ItemInput, { minItems: 1, maxItems: 50 }),
    total: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Your sum in cents; must match.' })),
    codes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 5, description: 'Promo codes and single-purpose vouchers; a refused one answers 422 CODE_INVALID, CODE_EXHAUSTED, CODE_EXPIRED, CODE_NOT_APPLICABLE or VOUCHER_WRONG_TICKET and nothing is written.' })),
    finalize: Type.Optional(Type.Boolean({ description: 'Absent or true: the order is finalized at once (barcodes, documents), as go~mus answers an order; false: a pending draft to finalize with POST /orders/:id/finalize.' })),
  },
  { description: 'Also accepted wrapped as {"order": {...}}.' },
);

export const UpdateOrderBody = Type.Object(
  { comment: Type.Optional(Nullable(Text)), reference: Type.Optional(Nullable(Text)), ...CustomerRef },
  { description: 'Also accepted wrapped as {"order": {...}}.' },
);

export const CancelBody = Type.Object({
  item_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100, description: 'None: every item.' })),
  refund: Type.Optional(Type.Boolean({ description: 'true: what was paid beyond the new total goes back to the payments (docs/payments.md).' })),
});

export const OrderParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'Numeric id or order token.' }) });
export const BarcodeParam = Type.Object({ code: Type.String({ minLength: 1, maxLength: 40 }) });

const Status = Type.Union([Type.Literal('pending'), Type.Literal('finalized'), Type.Literal('cancelled'), Type.Literal('expired')]);

export const ListOrdersQuery = Type.Object({
  foreign_id: Type.Optional(Type.String({ maxLength: 255 })),
  status: Type.Optional(Status),
  start_at: Type.Optional(Type.String({ maxLength: 40, description: 'Created at or after (date or timestamp).' })),
  end_at: Type.Optional(Type.String({ maxLength: 40, description: 'Created at or before (a date includes its whole day).' })),
  updated_since: Type.Optional(Type.String({ maxLength: 40 })),
  ...PageQuery,
});

const Barcode = Type.Object({ id: Type.Integer(), barcode: Type.String(), status: Type.String({ description: 'valid or void' }) });

const SoldCode = Type.Object({
  id: Type.Integer({ description: 'The gift card or voucher id.' }),
  code_last4: Type.String({ description: 'The last four characters of its code (the code itself is only in the PDF).' }),
  status: Type.String({ description: 'valid, void (cancelled with the order) or redeemed (a voucher)' }),
  pdf_url: Type.String({ description: 'Its PDF, read with the order token (GET /orders/:id/gift_cards/:card.pdf or /vouchers/:voucher.pdf).' }),
});

const ItemOut = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: 'Ticket, Event, Tour, GiftCard or Voucher' }),
  status: Type.String({ description: 'active or cancelled' }),
  price_cents: Type.Integer(),
  unit_price_cents: Type.Integer(),
  vat_pct: Type.Number(),
  tax_included: Type.Boolean(),
  quantity: Type.Integer(),
  entries_used: Type.Integer({ description: 'Entries made with this item\'s barcodes (docs/api-contract.md §14).' }),
  attributes: Type.Object({
    id: Type.Integer({ description: 'The ticket sale / booking id (the order item id).' }),
    ticket_id: Type.Optional(Type.Integer()),
    date_id: Type.Optional(Type.Integer()),
    event_id: Type.Optional(Type.Integer()),
    tour_id: Type.Optional(Type.Integer()),
    language_id: Type.Optional(Nullable(Type.Integer())),
    quantity: Type.Integer(),
    participants: Type.Optional(Type.Integer()),
    start_time: Type.String(),
    attendees: Type.Optional(Type.Array(Type.Object({ name: Type.String(), surname: Type.String() }))),
    barcodes: Type.Array(Barcode),
    amount_cents: Type.Optional(Type.Integer({ description: 'GiftCard: the value of each card.' })),
    language: Type.Optional(Nullable(Type.String({ description: 'GiftCard, Voucher: the PDF\'s language.' }))),
    recipient: Type.Optional(Nullable(Type.String())),
    gift_cards: Type.Optional(Type.Array(SoldCode, { description: 'GiftCard: the cards issued (none until the order is finalized).' })),
    vouchers: Type.Optional(Type.Array(SoldCode, { description: 'Voucher: the vouchers issued (none until the order is finalized).' })),
  }),
});

export const OrderOut = Type.Object({
  id: Type.Integer(),
  foreign_id: Nullable(Type.String()),
  token: Type.String(),
  status: Status,
  is_valid: Type.Boolean({ description: 'True once finalized and not cancelled.' }),
  total_price_cents: Type.Integer(),
  currency: Type.String(),
  source: Type.String(),
  customer_id: Nullable(Type.Integer()),
  comment: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  invoice: Type.Boolean({ description: 'go~mus: whether the order has an invoice PDF (GET /orders/:id/invoice.pdf?token=).' }),
  rating: Type.Null({ description: 'go~mus: a customer rating; Atrium collects none, so always null.' }),
  created_at: Type.String(),
  updated_at: Type.String(),
  finalized_at: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  items: Type.Array(ItemOut),
  documents: Type.Array(DocumentSummaryOut),
  discounts: Type.Optional(Type.Array(
    Type.Object({ code: Type.String({ description: 'The promo code, or …K7QZ for a single-purpose voucher.' }), amount_cents: Type.Integer(), item_id: Type.Integer() }),
    { description: 'What each code took off which item.' },
  )),
});

export const OrderEnvelope = Type.Object({ order: OrderOut });
export const OrderList = Type.Object({ orders: Type.Array(OrderOut), meta: ListMeta });
