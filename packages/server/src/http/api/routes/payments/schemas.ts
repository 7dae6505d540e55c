// Payment and refund schemas (docs/payments.md): bodies and answers of the payments routes.
import { Type } from 'typebox';
import { Id, Nullable, StringEnum } from '../../schemas/common.ts';

const PAYMENT_STATES = ['created', 'pending', 'confirmed', 'failed', 'canceled', 'refunded', 'partially_refunded'] as const;
const Instant = Type.String({ format: 'date-time' });

export const Payment = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  provider: StringEnum(['demo', 'desk', 'invoice', 'stripe', 'mollie', 'gift_card'] as const),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  state: StringEnum(PAYMENT_STATES),
  provider_ref: Nullable(Type.String({ description: "The provider's id of the attempt (Stripe Checkout Session, Mollie payment)." })),
  method: Nullable(Type.String()),
  created_by: Type.String({ description: 'account:<id>, staff:<id>, system, or what caused it (provider-webhook, return-url, reconcile).' }),
  created_at: Instant,
  confirmed_at: Nullable(Instant),
  failure: Nullable(Type.String({ description: 'Why the provider refused it, or why late money was refunded.' })),
});

export const Refund = Type.Object({
  id: Type.Integer(),
  payment_id: Type.Integer(),
  amount_cents: Type.Integer(),
  state: StringEnum(['pending', 'done', 'failed'] as const),
  provider_ref: Nullable(Type.String()),
  reason: Type.String(),
  created_by: Type.String(),
  created_at: Instant,
  failure: Nullable(Type.String()),
});

export const OrderPayments = Type.Object({
  order_id: Type.Integer(),
  payment_status: StringEnum(['unpaid', 'paid', 'partially_refunded', 'refunded'] as const),
  total_price_cents: Type.Integer(),
  paid_cents: Type.Integer({ description: 'Received on confirmed payments (including what was refunded since).' }),
  refunded_cents: Type.Integer({ description: 'Returned by refunds that are done.' }),
  currency: Type.String(),
  payments: Type.Array(Payment),
  refunds: Type.Array(Refund),
});

export const PaymentEnvelope = Type.Object({ payment: Payment });
export const CheckoutAnswer = Type.Object({
  payment: Payment,
  redirect_url: Type.String({ description: "Send the visitor here: the provider's payment page." }),
});
export const RefundList = Type.Object({ refunds: Type.Array(Refund) });
export const RefundEnvelope = Type.Object({ refund: Refund });

export const RecordPaymentBody = Type.Object(
  {
    provider: StringEnum(['desk', 'invoice', 'gift_card'] as const),
    amount_cents: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'e.g. cash, card, transfer.' })),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'gift_card only: the card\'s code (as for POST /orders/:id/payments/gift_card).' })),
  },
  { additionalProperties: false, description: 'Also accepted wrapped as {"payment": {...}}. gift_card: takes amount_cents from the card named by code.' },
);

export const CheckoutBody = Type.Object(
  {
    provider: StringEnum(['stripe', 'mollie', 'demo'] as const),
    return_url: Type.String({ format: 'uri', maxLength: 2000, description: 'Where the provider sends the visitor back (the shop).' }),
  },
  { additionalProperties: false },
);

export const RefundBody = Type.Object(
  {
    amount_cents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'None: everything still refundable.' })),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false, description: 'Also accepted wrapped as {"refund": {...}}.' },
);

export const OrderIdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'Numeric id or order token.' }) });
export const PaymentParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), payment_id: Id });
export const RefundParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), refund_id: Id });
export const WebhookAnswer = Type.Object({ received: Type.Boolean() });
export const DemoParam = Type.Object({ ref: Type.String({ pattern: '^demo_[0-9]+_[0-9a-f]{12}$' }) });
