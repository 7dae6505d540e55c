// Gift-card schemas (docs/vouchers.md): bodies and answers of /gift_cards and of paying with one.
import { Type } from 'typebox';
import { Id, Nullable, StringEnum } from '../../schemas/common.ts';

const LEDGER_KINDS = ['issued', 'redeemed', 'refunded', 'expired', 'corrected', 'voided'] as const;
const Instant = Type.String({ format: 'date-time' });
// Typed codes: up to 64 characters, spaces and dashes allowed (they are dropped).
const TypedCode = Type.String({ minLength: 1, maxLength: 64, description: 'The code as printed; spaces and dashes are ignored.' });

export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(LEDGER_KINDS),
  amount_cents: Type.Integer({ description: 'Signed: credits positive, debits negative.' }),
  balance_after_cents: Type.Integer(),
  payment_id: Nullable(Type.Integer()),
  refund_id: Nullable(Type.Integer()),
  reason: Nullable(Type.String()),
  actor: Type.String(),
  created_at: Instant,
});

export const GiftCard = Type.Object({
  id: Type.Integer(),
  code_last4: Type.String({ description: 'The last four characters of the code; the code itself is shown once, when issued.' }),
  currency: Type.String(),
  initial_cents: Type.Integer(),
  balance_cents: Type.Integer(),
  language: Type.String(),
  recipient: Nullable(Type.String()),
  expires_at: Instant,
  expired: Type.Boolean(),
  issued_by: Type.String(),
  issued_at: Instant,
  sold_order_item_id: Nullable(Type.Integer({ description: 'The order line (GiftCard item) that sold it; null when issued by staff.' })),
  voided_at: Nullable(Type.String({ format: 'date-time', description: 'Cancelled with the order that sold it (ledger entry `voided`).' })),
});

export const GiftCardWithLedger = Type.Object({ gift_card: GiftCard, ledger: Type.Array(LedgerEntry) });
export const IssuedGiftCard = Type.Object({
  gift_card: Type.Intersect([GiftCard, Type.Object({ code: Type.String({ description: 'Shown in this answer only: it cannot be read again.' }) })]),
  ledger: Type.Array(LedgerEntry),
});
export const GiftCardList = Type.Object({ gift_cards: Type.Array(GiftCard) });
export const LedgerList = Type.Object({ ledger: Type.Array(LedgerEntry) });
export const Balance = Type.Object({
  balance_cents: Type.Integer(),
  currency: Type.String(),
  expires_at: Instant,
  expired: Type.Boolean(),
});

export const IssueBody = Type.Object(
  {
    amount_cents: Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'A fixed value of the offer or a free amount within the limits (5.00 to 500.00).' }),
    language: Type.Optional(Type.String({ pattern: '^[a-z]{2}$', description: 'Language of the PDF; default: the instance’s first locale.' })),
    recipient: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    expires_on: Type.Optional(Type.String({ format: 'date', description: 'Last valid day; default: 31 December of the third year after the year of sale.' })),
  },
  { additionalProperties: false, description: 'Also accepted wrapped as {"gift_card": {...}}.' },
);
export const CorrectionBody = Type.Object(
  {
    amount_cents: Type.Integer({ minimum: -100_000_000, maximum: 100_000_000, description: 'Signed change of the balance, not 0.' }),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export const CodeBody = Type.Object({ code: TypedCode }, { additionalProperties: false });
export const BalanceQuery = Type.Object({ code: TypedCode }, { additionalProperties: false });
export const ListQuery = Type.Object(
  {
    last4: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{4}$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export const GiftCardParam = Type.Object({ id: Id });
export const GiftCardPaymentBody = Type.Object(
  {
    code: TypedCode,
    amount_cents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Default: what is due, or the balance when it is less.' })),
  },
  { additionalProperties: false },
);
