// Gift cards and ledger entries as JSON. The code is never part of it: only the answer to the
// issue adds it, once.
import type { GiftCardRow, LedgerRow } from '../../db/repositories/giftCards.ts';
import { isoInZone } from '../time.ts';

export function serializeGiftCard(c: GiftCardRow, zone: string, now: Date) {
  return {
    id: c.id,
    code_last4: c.codeLast4,
    currency: c.currency,
    initial_cents: c.initialCents,
    balance_cents: c.balanceCents,
    language: c.language,
    recipient: c.recipient,
    expires_at: isoInZone(c.expiresAt, zone),
    expired: c.expiresAt <= now,
    issued_by: c.issuedBy,
    issued_at: isoInZone(c.issuedAt, zone),
    sold_order_item_id: c.orderItemId,
    voided_at: c.voidedAt ? isoInZone(c.voidedAt, zone) : null,
  };
}

export function serializeLedger(l: LedgerRow, zone: string) {
  return {
    id: l.id,
    kind: l.kind,
    amount_cents: l.amountCents,
    balance_after_cents: l.balanceAfterCents,
    payment_id: l.paymentId,
    refund_id: l.refundId,
    reason: l.reason,
    actor: l.actor,
    created_at: isoInZone(l.createdAt, zone),
  };
}
