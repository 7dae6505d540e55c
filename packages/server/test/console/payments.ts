// Money of museum A for the console's payment rows (role table, payments tests): an order paid at
// the desk through the API, and one whose refund the provider refused (written as the refund
// verb leaves it: the amount reserved on the payment, the refund `failed`), fresh per call.
import { insertPayment, insertRefund, reserveRefund } from '../../src/db/repositories/payments.ts';
import type { ConsoleFixture, Museum } from './fixture.ts';

/**
 * A finalized order of `m` paid in full at the desk, written as recordPayment leaves it but without
 * its audit entry (the role table counts audit entries around the request only).
 */
export async function paidOrder(fx: ConsoleFixture, m: Museum = fx.A): Promise<{ id: number; totalCents: number; paymentId: number }> {
  const o = await fx.order(m);
  const order = (await fx.t.request({ method: 'GET', url: `/api/v4/orders/${o.id}`, token: fx.user })).json().order;
  const now = fx.t.clock.now();
  const p = await insertPayment(fx.t.database.db, {
    orderId: o.id, provider: 'desk', amountCents: order.total_price_cents, currency: order.currency, state: 'confirmed', method: 'cash',
    providerRef: `desk-${o.id}`, createdBy: 'test', createdAt: now, updatedAt: now, confirmedAt: now,
  });
  return { id: o.id, totalCents: order.total_price_cents, paymentId: p.id };
}

/** A paid order of `m` with a refund of `cents` its provider refused. */
export async function failedRefund(fx: ConsoleFixture, m: Museum = fx.A, cents = 500): Promise<{ orderId: number; refundId: number }> {
  const { id, paymentId } = await paidOrder(fx, m);
  const db = fx.t.database.db;
  const now = fx.t.clock.now();
  await reserveRefund(db, paymentId, cents, now);
  const r = await insertRefund(db, {
    paymentId, amountCents: cents, state: 'failed', reason: 'goodwill', createdBy: 'test', createdAt: now, updatedAt: now, failure: 'The refund could not be processed.',
  });
  return { orderId: id, refundId: r.id };
}
