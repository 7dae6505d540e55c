// Money recorded at the desk or by transfer, refunds across an order's payments, a failed refund
// that stays visible and is retried, and cancellation with "refund": true.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
});
after(() => w.close());

const money = async (id: number) => (await w.get(`/orders/${id}/payments`)).json();

async function paidByStripe(quantity: number) {
  const id = await w.order(quantity);
  const { sessionId } = await stripeCheckout(w, id);
  w.stripe.pay(sessionId);
  await stripeWebhook(w, 'checkout.session.completed', sessionId);
  return id;
}

describe('recorded payments', () => {
  test('desk and invoice money settle a pending order once the total is covered', async () => {
    const id = await w.order(2);
    const cash = await w.post(`/orders/${id}/payments`, { payment: { provider: 'desk', amount_cents: 1000, method: 'cash' } });
    assert.equal(cash.statusCode, 201, cash.body);
    assert.deepEqual([cash.json().payment.state, cash.json().payment.method], ['confirmed', 'cash']);
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'pending');
    assert.equal((await money(id)).payment_status, 'unpaid');
    const tooMuch = await w.post(`/orders/${id}/payments`, { provider: 'invoice', amount_cents: 1900 });
    assert.equal(tooMuch.statusCode, 422);
    assert.equal(tooMuch.json().code, 'PAYMENT_NOT_DUE');
    const rest = await w.post(`/orders/${id}/payments`, { provider: 'invoice', amount_cents: 1800 });
    assert.equal(rest.statusCode, 201, rest.body);
    assert.equal(rest.json().payment.method, 'transfer');
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'finalized');
    const m = await money(id);
    assert.deepEqual([m.payment_status, m.paid_cents], ['paid', 2800]);
    assert.equal((await w.events('order.paid', id)).length, 1);
  });

  test('a gift card payment without a valid code is refused; resellers may not record money', async () => {
    const id = await w.order();
    const gift = await w.post(`/orders/${id}/payments`, { provider: 'gift_card', amount_cents: 1400 });
    assert.equal(gift.statusCode, 422);
    assert.equal(gift.json().code, 'CODE_INVALID');
    const reseller = await w.post(`/orders/${id}/payments`, { provider: 'desk', amount_cents: 1400 }, w.reseller);
    assert.equal(reseller.statusCode, 403);
    assert.equal((await money(id)).payments.length, 0);
  });
});

describe('refunds', () => {
  test('never more than was paid; nothing changes when refused', async () => {
    const id = await paidByStripe(2);
    const over = await w.post(`/orders/${id}/refunds`, { amount_cents: 2801, reason: 'too much' });
    assert.equal(over.statusCode, 422);
    assert.equal(over.json().code, 'REFUND_EXCEEDS_PAID');
    assert.equal((await money(id)).refunds.length, 0);
    const all = await w.post(`/orders/${id}/refunds`, { reason: 'visitor asked' });
    assert.equal(all.statusCode, 201, all.body);
    assert.deepEqual(all.json().refunds.map((r: { amount_cents: number; state: string }) => [r.amount_cents, r.state]), [[2800, 'done']]);
    const m = await money(id);
    assert.deepEqual([m.payment_status, m.payments[0].state, m.refunded_cents], ['refunded', 'refunded', 2800]);
    assert.equal((await w.post(`/orders/${id}/refunds`, { amount_cents: 1, reason: 'again' })).statusCode, 422);
    assert.equal((await w.events('refund.succeeded', id)).length, 1);
  });

  test('a failed refund stays visible with refund.failed and can be retried', async () => {
    const id = await paidByStripe(1);
    w.stripe.failRefunds = true;
    const r = await w.post(`/orders/${id}/refunds`, { amount_cents: 500, reason: 'goodwill' });
    assert.equal(r.statusCode, 201, r.body);
    const refund = r.json().refunds[0];
    assert.equal(refund.state, 'failed');
    assert.ok(refund.failure);
    assert.equal((await w.events('refund.failed', id)).length, 1);
    // Still owed: its amount stays reserved, so a new refund cannot take it twice.
    assert.equal((await w.post(`/orders/${id}/refunds`, { amount_cents: 901, reason: 'x' })).statusCode, 422);
    w.stripe.failRefunds = false;
    const retry = await w.post(`/orders/${id}/refunds/${refund.id}/retry`);
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.json().refund.state, 'done');
    assert.equal((await w.post(`/orders/${id}/refunds/${refund.id}/retry`)).json().code, 'REFUND_NOT_RETRYABLE');
    assert.equal((await money(id)).payment_status, 'partially_refunded');
    assert.equal(w.stripe.refunds.filter((x) => x.amount === 500).length, 1);
    assert.deepEqual((await w.audit('refund', refund.id)).map((a) => a.action), ['refund.created', 'refund.failed', 'refund.retried', 'refund.done']);
  });

  test('a refund Stripe made but never answered is retried under the same key: made once', async () => {
    const id = await paidByStripe(1);
    const before = w.stripe.refunds.length;
    w.stripe.dropRefunds = true;
    const r = await w.post(`/orders/${id}/refunds`, { reason: 'no answer' });
    assert.equal(r.statusCode, 201, r.body);
    const refund = r.json().refunds[0];
    assert.equal(refund.state, 'pending');
    assert.match(refund.failure, /no answer from the provider/);
    assert.equal(w.stripe.refunds.length - before, 1, 'Stripe made it');
    w.stripe.dropRefunds = false;
    const retry = await w.post(`/orders/${id}/refunds/${refund.id}/retry`);
    assert.equal(retry.json().refund.state, 'done');
    assert.equal(w.stripe.refunds.length - before, 1, 'and did not make it twice');
    assert.equal((await money(id)).payment_status, 'refunded');
  });

  test('a partial refund, then cancelling everything with refund: true returns the rest', async () => {
    const id = await paidByStripe(3); // 42.00
    assert.equal((await w.post(`/orders/${id}/refunds`, { amount_cents: 1000, reason: 'late opening' })).statusCode, 201);
    const cancelled = await w.post(`/orders/${id}/cancellations`, { refund: true });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().order.status, 'cancelled');
    const m = await money(id);
    assert.deepEqual(m.refunds.map((r: { amount_cents: number; state: string; reason: string }) => [r.amount_cents, r.state, r.reason]), [
      [1000, 'done', 'late opening'],
      [3200, 'done', 'items cancelled'],
    ]);
    assert.deepEqual([m.payment_status, m.refunded_cents], ['refunded', 4200]);
    // Repeating the cancellation refunds nothing more.
    await w.post(`/orders/${id}/cancellations`, { refund: true });
    assert.equal((await money(id)).refunds.length, 2);
  });

  test('cancelling one paid item with refund: true returns its amount only', async () => {
    const a = await w.post('/orders', { finalize: false, items: [
      { type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(720) } },
      { type: 'Ticket', attributes: { id: w.ticketId, quantity: 2, time: w.at(750) } },
    ] });
    const id = a.json().order.id;
    const first = a.json().order.items[0].id;
    assert.equal((await w.post(`/orders/${id}/payments`, { provider: 'desk', amount_cents: 4200 })).statusCode, 201);
    const c = await w.post(`/orders/${id}/cancellations`, { item_ids: [first], refund: true });
    assert.equal(c.statusCode, 200, c.body);
    const m = await money(id);
    assert.deepEqual(m.refunds.map((r: { amount_cents: number }) => r.amount_cents), [1400]);
    assert.equal(m.payment_status, 'paid', 'what is kept still covers what is left of the order');
    // Without "refund": true nothing goes back.
    const b = await w.order(1, 780);
    await w.post(`/orders/${b}/payments`, { provider: 'desk', amount_cents: 1400 });
    await w.post(`/orders/${b}/cancellations`, {});
    assert.equal((await money(b)).refunds.length, 0);
  });
});
