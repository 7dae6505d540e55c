// Promo-code schemas (docs/vouchers.md): bodies and answers of /promo_codes.
import { Type } from 'typebox';
import { Id, Nullable, StringEnum } from '../../schemas/common.ts';

const CHANNELS = ['shop', 'desk', 'reseller'] as const;
const KINDS = ['percent', 'amount', 'free_item', 'buy_x_get_y', 'free_companion'] as const;
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 });
const Day = Type.String({ format: 'date' });

export const PromoCode = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  kind: StringEnum(KINDS),
  percent: Nullable(Type.Integer()),
  amount_cents: Nullable(Type.Integer()),
  cap_cents: Nullable(Type.Integer()),
  buy_quantity: Nullable(Type.Integer()),
  get_quantity: Nullable(Type.Integer()),
  companion_ticket_id: Nullable(Type.Integer()),
  ticket_ids: Type.Array(Type.Integer()),
  event_ids: Type.Array(Type.Integer()),
  tour_ids: Type.Array(Type.Integer()),
  channels: Type.Array(Type.String()),
  sale_from: Nullable(Type.String({ format: 'date-time' })),
  sale_until: Nullable(Type.String({ format: 'date-time' })),
  visit_from: Nullable(Day),
  visit_until: Nullable(Day),
  min_quantity: Type.Integer(),
  max_uses: Nullable(Type.Integer()),
  max_uses_per_email: Nullable(Type.Integer()),
  uses: Type.Integer(),
  partner_account_id: Nullable(Type.Integer()),
  active: Type.Boolean(),
});
export const PromoCodeEnvelope = Type.Object({ promo_code: PromoCode });
export const PromoCodeList = Type.Object({ promo_codes: Type.Array(PromoCode) });

export const PromoCodeBody = Type.Object(
  {
    code: Type.String({ minLength: 3, maxLength: 60, description: 'Letters, digits or _; case, spaces and dashes are ignored.' }),
    kind: StringEnum(KINDS),
    percent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    buy_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    get_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    companion_ticket_id: Type.Optional(Type.Integer({ minimum: 1 })),
    amount_cents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    cap_cents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Most the code takes off one order (not for kind amount).' })),
    ticket_ids: Type.Optional(Ids),
    event_ids: Type.Optional(Ids),
    tour_ids: Type.Optional(Ids),
    channels: Type.Optional(Type.Array(StringEnum(CHANNELS), { maxItems: 3 })),
    sale_from: Type.Optional(Day),
    sale_until: Type.Optional(Day),
    visit_from: Type.Optional(Day),
    visit_until: Type.Optional(Day),
    min_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    max_uses: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    max_uses_per_email: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    partner_account_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false, description: 'Also accepted wrapped as {"promo_code": {...}}. No product ids: every product; no channels: every channel. Kinds: percent or amount off; free_item (get_quantity admissions free, the cheapest); buy_x_get_y (of every buy_quantity + get_quantity admissions the get_quantity cheapest at percent off, default 100); free_companion (one free per buy_quantity paid, of companion_ticket_id if given).' },
);
export const PromoActiveBody = Type.Object({ active: Type.Boolean() }, { additionalProperties: false });
export const PromoListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export const PromoCodeParam = Type.Object({ id: Id });
