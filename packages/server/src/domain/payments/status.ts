// The one rule for an order's payment status (docs/payments.md, "States"): it follows from the
// order's payments and refunds and is never stored, so it cannot disagree with them.
export type PaymentStatus = 'unpaid' | 'paid' | 'partially_refunded' | 'refunded';

/** Payment states in which the money was received (some of it may have gone back since). */
export const RECEIVED_STATES = ['confirmed', 'partially_refunded', 'refunded'] as const;

export function received(p: { state: string }): boolean {
  return (RECEIVED_STATES as readonly string[]).includes(p.state);
}

/** Money received on confirmed payments, and money returned by refunds that are done. */
export function moneyOf(payments: Array<{ id: number; state: string; amountCents: number }>, refunds: Array<{ paymentId: number; state: string; amountCents: number }>) {
  const paid = payments.filter(received).reduce((s, p) => s + p.amountCents, 0);
  const refunded = refunds.filter((r) => r.state === 'done').reduce((s, r) => s + r.amountCents, 0);
  return { paidCents: paid, refundedCents: refunded, netCents: paid - refunded };
}

/**
 * Whether the order has its money: `paid` when what was kept (received minus refunded) covers the
 * total, even after refunds of money beyond it (cancelled items, a page paid twice); `unpaid` when
 * nothing or too little came and nothing went back; `partially_refunded` when refunds left less
 * than the total; `refunded` when everything received went back.
 */
export function paymentStatus(totalCents: number, money: { paidCents: number; refundedCents: number }): PaymentStatus {
  const { paidCents, refundedCents } = money;
  if (paidCents === 0) return 'unpaid';
  const kept = paidCents - refundedCents;
  if (kept <= 0) return 'refunded';
  if (kept >= totalCents) return 'paid';
  return refundedCents > 0 ? 'partially_refunded' : 'unpaid';
}

/** A payment's own state after refunds of `refundedCents` (done) against it. */
export function stateAfterRefunds(amountCents: number, doneCents: number): 'confirmed' | 'partially_refunded' | 'refunded' {
  if (doneCents <= 0) return 'confirmed';
  return doneCents >= amountCents ? 'refunded' : 'partially_refunded';
}
