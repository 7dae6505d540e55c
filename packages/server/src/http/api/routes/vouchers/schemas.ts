// Single-purpose voucher schemas (docs/vouchers.md): bodies and answers of /vouchers.
import { Type } from 'typebox';
import { Id, Nullable, StringEnum } from '../../schemas/common.ts';

const Instant = Type.String({ format: 'date-time' });

export const Voucher = Type.Object({
  id: Type.Integer(),
  code_last4: Type.String({ description: 'The last four characters of the code; the code itself is shown once, when issued.' }),
  ticket_id: Type.Integer({ description: 'The one ticket it admits to, in any free slot.' }),
  price_cents: Type.Integer({ description: 'The ticket price at sale, VAT included as the ticket says.' }),
  vat_pct: Type.Number({ description: 'VAT charged at sale.' }),
  currency: Type.String(),
  language: Type.String(),
  recipient: Nullable(Type.String()),
  expires_at: Instant,
  status: StringEnum(['valid', 'redeemed', 'expired', 'void'] as const),
  order_id: Nullable(Type.Integer({ description: 'The order that redeemed it.' })),
  redeemed_at: Nullable(Instant),
  issued_at: Instant,
  sold_order_item_id: Nullable(Type.Integer({ description: 'The order line (Voucher item) that sold it; null when issued by staff.' })),
});
export const VoucherEnvelope = Type.Object({ voucher: Voucher });
export const IssuedVoucher = Type.Object({
  voucher: Type.Intersect([Voucher, Type.Object({ code: Type.String({ description: 'Shown in this answer only: it cannot be read again.' }) })]),
});
export const VoucherList = Type.Object({ vouchers: Type.Array(Voucher) });
export const VoucherBody = Type.Object(
  {
    ticket_id: Type.Integer({ minimum: 1 }),
    language: Type.Optional(Type.String({ minLength: 2, maxLength: 5 })),
    recipient: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    expires_on: Type.Optional(Type.String({ format: 'date', description: 'Last valid day; by default the end of the third year after the sale.' })),
  },
  { additionalProperties: false, description: 'Also accepted wrapped as {"voucher": {...}}.' },
);
export const VoucherListQuery = Type.Object(
  {
    last4: Type.Optional(Type.String({ minLength: 4, maxLength: 4 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export const VoucherParam = Type.Object({ id: Id });
