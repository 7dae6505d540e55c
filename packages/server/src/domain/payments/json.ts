// Payments and refunds as JSON (GET /orders/:id/payments and the payment events' data).
import type { PaymentRow, RefundRow } from '../../db/repositories/payments.ts';
import { isoInZone } from '../time.ts';
import type { PaymentStatus } from './status.ts';

const iso = (d: Date | null, zone: string) => (d ? isoInZone(d, zone) : null);

export function serializePayment(p: PaymentRow, zone: string) {
  return {
    id: p.id,
    order_id: p.orderId,
    provider: p.provider,
    amount_cents: p.amountCents,
    currency: p.currency,
    state: p.state,
    provider_ref: p.providerRef,
    method: p.method,
    created_by: p.createdBy,
    created_at: iso(p.createdAt, zone)!,
    confirmed_at: iso(p.confirmedAt, zone),
    failure: p.failure,
  };
}

export function serializeRefund(r: RefundRow, zone: string) {
  return {
    id: r.id,
    payment_id: r.paymentId,
    amount_cents: r.amountCents,
    state: r.state,
    provider_ref: r.providerRef,
    reason: r.reason,
    created_by: r.createdBy,
    created_at: iso(r.createdAt, zone)!,
    failure: r.failure,
  };
}

export interface OrderPayments {
  orderId: number;
  totalCents: number;
  currency: string;
  status: PaymentStatus;
  paidCents: number;
  refundedCents: number;
  payments: PaymentRow[];
  refunds: RefundRow[];
}

export function serializeOrderPayments(o: OrderPayments, zone: string) {
  return {
    order_id: o.orderId,
    payment_status: o.status,
    total_price_cents: o.totalCents,
    paid_cents: o.paidCents,
    refunded_cents: o.refundedCents,
    currency: o.currency,
    payments: o.payments.map((p) => serializePayment(p, zone)),
    refunds: o.refunds.map((r) => serializeRefund(r, zone)),
  };
}
