// Reservation (hold) request and response schemas (docs/api-contract.md §6, docs/reference/gomus-v4-facts.md §3.9, §5.1).
import { Type } from 'typebox';
import { Id } from './common.ts';

export const ReservationInput = Type.Object(
  {
    ticket_id: Type.Optional(Id),
    date_id: Type.Optional(Id),
    quantity: Type.Integer({ minimum: 1, maximum: 100_000 }),
    start_at: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Slot start (ISO 8601; without offset read as museum-local time). Day tickets: any time of the day.',
      }),
    ),
    codes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 5,
      description: 'Promo codes and single-purpose vouchers, checked as on orders (same 422 codes, nothing written); the answer shows their effect. The hold takes no use: name them again on the order.',
    })),
  },
  { description: 'Either ticket_id with start_at, or date_id. Also accepted wrapped as {"reservation": {...}}.' },
);

export const ReservationUpdate = Type.Object(
  { quantity: Type.Integer({ minimum: 1, maximum: 100_000 }) },
  { description: 'Also accepted wrapped as {"reservation": {"quantity": n}}. Only the quantity can change.' },
);

export const ReservationParam = Type.Object({ reservation_token: Type.String({ minLength: 1, maxLength: 200 }) });

export const Reservation = Type.Object({
  reservation_token: Type.String({ description: 'Secret that identifies the hold in PUT, DELETE, reservations[] and orders.' }),
  token: Type.String({ description: 'Same as reservation_token (go~mus field name).' }),
  ticket_id: Type.Optional(Type.Integer()),
  date_id: Type.Optional(Type.Integer()),
  quantity: Type.Integer(),
  start_at: Type.String({ format: 'date-time', description: 'The held slot, in the museum zone.' }),
  valid_until: Type.String({ format: 'date-time', description: 'The hold lapses at this instant.' }),
  price_cents: Type.Optional(Type.Integer({ description: 'On creation with codes: the price of the held admissions after them.' })),
  discounts: Type.Optional(Type.Array(Type.Object({ code: Type.String(), amount_cents: Type.Integer() }), { description: 'On creation with codes: what each code takes off.' })),
});

export const ReservationEnvelope = Type.Object({ reservation: Reservation });
