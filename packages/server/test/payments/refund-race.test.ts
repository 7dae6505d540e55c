// Two refunds at once never return more than was paid: refunds lock the order's payment rows and
// reserve their amount before the provider is called. The control run switches that off
// (ctx.testing.disablePaymentLocks) and shows the same requests refunding more than was paid,
// so the test would catch the fault. The database's own guard is checked apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { reserveRefund } from '../../src/db/repositories/payments.ts';
import { isDbError } from '../../src/db/errors.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { paymentsWorld, type PaymentsWorld } from './support.ts';
import { raceUntilFault } from '../helpers/control.ts';

const testing: NonNullable<Ctx['testing']> = {};
let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld({ testing });
});
after(() => w.close());

const RACERS = 8;

/** A desk-paid order (14.00) and RACERS full refunds sent at once; what went back, in cents. */
async function race(min: number) {
  const id = await w.order(1, min);
  assert.equal((await w.post(`/orders/${id}/payments`, { provider: 'desk', amount_cents: 1400, method: 'cash' })).statusCode, 201);
  const answers = await Promise.all(Array.from({ length: RACERS }, () => w.post(`/orders/${id}/refunds`, { reason: 'race' })));
  const m = (await w.get(`/orders/${id}/payments`)).json();
  return { answers: answers.map((a) => a.statusCode), refunded: m.refunded_cents as number, rows: m.refunds.length as number };
}

describe('refund race', () => {
  test('with the locks: exactly one refund of what was paid, the others refused', async () => {
    testing.disablePaymentLocks = false;
    const r = await race(600);
    assert.equal(r.answers.filter((s) => s === 201).length, 1, JSON.stringify(r));
    assert.equal(r.answers.filter((s) => s === 422).length, RACERS - 1);
    assert.deepEqual([r.refunded, r.rows], [1400, 1]);
  });

  test('control run without the locks: the same requests refund more than was paid', async () => {
    testing.disablePaymentLocks = true;
    try {
      // Up to three races, each on an order of its own (test/helpers/control.ts).
      const runs = await raceUntilFault([630, 690, 720], race, (r) => r.refunded > 1400);
      assert.ok(runs.at(-1)!.refunded > 1400, `expected an over-refund without the locks, got ${JSON.stringify(runs)}`);
    } finally {
      testing.disablePaymentLocks = false;
    }
  });

  test('the database refuses reserving more than a payment’s amount, whatever the code computed', async () => {
    const id = await w.order(1, 660);
    const p = (await w.post(`/orders/${id}/payments`, { provider: 'desk', amount_cents: 1400 })).json().payment;
    await reserveRefund(w.t.database.db, p.id, 1400, new Date());
    await assert.rejects(reserveRefund(w.t.database.db, p.id, 1, new Date()), (err) => isDbError(err, 'CHECK_VIOLATION', 'payments_refunded_within'));
  });
});
