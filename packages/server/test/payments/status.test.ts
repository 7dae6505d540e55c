// The one rule for an order's payment status, case by case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paymentStatus, stateAfterRefunds } from '../../src/domain/payments/status.ts';

test('payment status follows from money received and returned', () => {
  const cases: Array<[number, number, number, string]> = [
    // total, received, refunded, status
    [2800, 0, 0, 'unpaid'],
    [2800, 1000, 0, 'unpaid'],
    [2800, 2800, 0, 'paid'],
    [2800, 5600, 2800, 'paid'], // paid twice, one given back
    [1400, 2800, 1400, 'paid'], // an item cancelled and refunded
    [2800, 2800, 500, 'partially_refunded'],
    [2800, 2800, 2800, 'refunded'],
    [0, 2800, 2800, 'refunded'],
    [0, 2800, 0, 'paid'], // cancelled without a refund: the money was kept on purpose
  ];
  for (const [total, paidCents, refundedCents, want] of cases) {
    assert.equal(paymentStatus(total, { paidCents, refundedCents }), want, `${total}/${paidCents}/${refundedCents}`);
  }
});

test("a payment's own state after refunds", () => {
  assert.equal(stateAfterRefunds(1400, 0), 'confirmed');
  assert.equal(stateAfterRefunds(1400, 400), 'partially_refunded');
  assert.equal(stateAfterRefunds(1400, 1400), 'refunded');
});
