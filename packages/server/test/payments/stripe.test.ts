// Stripe Checkout end to end over the API, with the real `stripe` SDK talking to the local
// stand-in: the webhook and the visitor's return both confirm, in either order and any number of
// times, and the order is finalized exactly once with one order.paid event; a bad signature
// changes nothing; a decline and a cancel leave the order pending and say so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
});
after(() => w.close());

const orderOf = async (id: number) => (await w.get(`/orders/${id}`)).json().order;
const paymentsOf = async (id: number) => (await w.get(`/orders/${id}/payments`)).json();

describe('stripe checkout', () => {
  test('success: webhook first, then the return; finalized once, one order.paid', async () => {
    const id = await w.order(2);
    const { paymentId, sessionId, redirect } = await stripeCheckout(w, id);
    assert.ok(redirect.startsWith(w.stripe.base), redirect);
    assert.equal(w.stripe.sessions.get(sessionId)!.amount_total, 2800);
    // Stripe's page closes with the order (at least the 30 minutes Stripe requires).
    const closes = w.stripe.sessions.get(sessionId)!.expires_at! * 1000 - Date.now();
    assert.ok(closes > 30 * 60_000 && closes < 35 * 60_000, `session expires in ${closes} ms`);
    assert.equal((await paymentsOf(id)).payments[0].state, 'pending');
    w.stripe.pay(sessionId);
    const hook = await stripeWebhook(w, 'checkout.session.completed', sessionId);
    assert.equal(hook.statusCode, 200, hook.body);
    const o = await orderOf(id);
    assert.equal(o.status, 'finalized');
    assert.equal(o.items[0].attributes.barcodes.length, 2);
    const back = await w.post(`/orders/${id}/payments/${paymentId}/confirm`);
    assert.equal(back.statusCode, 200, back.body);
    assert.equal(back.json().payment.state, 'confirmed');
    const p = await paymentsOf(id);
    assert.equal(p.payment_status, 'paid');
    assert.equal(p.paid_cents, 2800);
    assert.equal((await w.events('order.paid', id)).length, 1);
    assert.equal((await w.events('order.finalized', id)).length, 1);
    const audit = await w.audit('payment', paymentId);
    assert.deepEqual(audit.map((a) => a.action), ['payment.created', 'payment.pending', 'payment.confirmed']);
    assert.equal(audit[2]!.actor, 'provider-webhook');
    assert.match(audit[0]!.actor, /^account:\d+$/);
  });

  test('the return before the webhook confirms too; the late webhook changes nothing', async () => {
    const id = await w.order();
    const { paymentId, sessionId } = await stripeCheckout(w, id);
    w.stripe.pay(sessionId);
    const back = await w.post(`/orders/${id}/payments/${paymentId}/confirm`);
    assert.equal(back.json().payment.state, 'confirmed');
    assert.equal((await orderOf(id)).status, 'finalized');
    assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
    assert.equal((await w.events('order.paid', id)).length, 1);
    assert.equal((await w.audit('payment', paymentId)).filter((a) => a.action === 'payment.confirmed').length, 1);
  });

  test('the same webhook three times: finalized once, one order.paid, one set of documents', async () => {
    const id = await w.order();
    const { sessionId } = await stripeCheckout(w, id);
    w.stripe.pay(sessionId);
    const sent = w.stripe.event('checkout.session.completed', sessionId);
    const answers = await Promise.all([1, 2, 3].map(() => w.t.request({ method: 'POST', url: '/api/v4/payments/stripe/webhook', payload: sent.payload, headers: sent.headers })));
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200]);
    assert.equal((await w.events('order.paid', id)).length, 1);
    assert.equal((await w.events('order.finalized', id)).length, 1);
    assert.equal((await orderOf(id)).items[0].attributes.barcodes.length, 1);
  });

  test('a bad signature is refused with 400 and changes nothing', async () => {
    const id = await w.order();
    const { sessionId } = await stripeCheckout(w, id);
    w.stripe.pay(sessionId);
    const calls = w.stripe.calls.length;
    const forged = await stripeWebhook(w, 'checkout.session.completed', sessionId, 'whsec_wrong');
    assert.equal(forged.statusCode, 400, forged.body);
    assert.equal(forged.json().code, 'WEBHOOK_SIGNATURE_INVALID');
    assert.ok(!forged.body.includes(w.stripe.webhookSecret));
    const unsigned = await w.t.request({ method: 'POST', url: '/api/v4/payments/stripe/webhook', payload: '{"type":"checkout.session.completed"}', headers: { 'content-type': 'application/json' } });
    assert.equal(unsigned.statusCode, 400);
    assert.equal(w.stripe.calls.length, calls, 'Stripe was not even asked');
    assert.equal((await orderOf(id)).status, 'pending');
    assert.equal((await paymentsOf(id)).payments[0].state, 'pending');
  });

  test('a decline marks the payment failed with payment.failed; the order stays pending', async () => {
    const id = await w.order();
    const { sessionId } = await stripeCheckout(w, id);
    w.stripe.decline(sessionId);
    assert.equal((await stripeWebhook(w, 'checkout.session.async_payment_failed', sessionId)).statusCode, 200);
    const p = (await paymentsOf(id)).payments[0];
    assert.deepEqual([p.state, p.failure], ['failed', 'generic_decline']);
    assert.equal((await w.events('payment.failed', id)).length, 1);
    assert.equal((await orderOf(id)).status, 'pending');
    // The visitor tries again: a new attempt for what is still due.
    const again = await stripeCheckout(w, id);
    w.stripe.pay(again.sessionId);
    await stripeWebhook(w, 'checkout.session.completed', again.sessionId);
    assert.equal((await orderOf(id)).status, 'finalized');
  });

  test('a cancel on Stripe’s page (the session expires) marks it canceled', async () => {
    const id = await w.order();
    const { sessionId } = await stripeCheckout(w, id);
    w.stripe.expire(sessionId);
    await stripeWebhook(w, 'checkout.session.expired', sessionId);
    assert.equal((await paymentsOf(id)).payments[0].state, 'canceled');
    assert.equal((await paymentsOf(id)).payment_status, 'unpaid');
    assert.equal((await orderOf(id)).status, 'pending');
  });

  test('two payment pages for one order, both paid: the second payment goes back, order.paid once', async () => {
    const id = await w.order();
    const first = await stripeCheckout(w, id);
    const second = await stripeCheckout(w, id); // the visitor opened the page twice
    w.stripe.pay(first.sessionId);
    w.stripe.pay(second.sessionId);
    await stripeWebhook(w, 'checkout.session.completed', second.sessionId);
    await stripeWebhook(w, 'checkout.session.completed', first.sessionId);
    const p = await paymentsOf(id);
    assert.deepEqual(p.payments.map((x: { state: string }) => x.state).sort(), ['confirmed', 'refunded']);
    assert.deepEqual(p.refunds.map((r: { amount_cents: number; state: string; reason: string }) => [r.amount_cents, r.state, r.reason]), [[1400, 'done', 'paid twice: the order was already paid']]);
    assert.deepEqual([p.payment_status, p.paid_cents - p.refunded_cents], ['paid', 1400]);
    assert.equal((await w.events('order.paid', id)).length, 1);
    assert.equal((await orderOf(id)).status, 'finalized');
  });
});
