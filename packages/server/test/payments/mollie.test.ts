// Mollie hosted checkout end to end, with the real `@mollie/api-client` SDK talking to the local
// HTTPS stand-in. Mollie's webhook carries only an id, so the payment is always fetched from
// Mollie: a forged or unknown id changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { paymentsWorld, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
});
after(() => w.close());

const checkout = async (orderId: number) => {
  const res = await w.post(`/orders/${orderId}/checkout`, { provider: 'mollie', return_url: 'https://shop.example.org/back' });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { payment: { id: number; provider_ref: string; amount_cents: number }; redirect_url: string };
};
const hook = (id: string) => {
  const { payload, headers } = w.mollie.webhook(id);
  return w.t.request({ method: 'POST', url: '/api/v4/payments/mollie/webhook', payload, headers });
};

describe('mollie checkout', () => {
  test('paid: the webhook names the payment, Atrium fetches it and finalizes the order', async () => {
    const id = await w.order(3);
    const c = await checkout(id);
    assert.match(c.payment.provider_ref, /^tr_/);
    assert.ok(c.redirect_url.includes('/checkout/'));
    const created = w.mollie.payments.get(c.payment.provider_ref)!;
    assert.deepEqual(created.amount, { currency: 'EUR', value: '42.00' });
    assert.equal(created.webhookUrl, 'https://tickets.example.org/api/v4/payments/mollie/webhook');
    // A webhook before anything happened: still open at Mollie, still pending here.
    assert.equal((await hook(c.payment.provider_ref)).statusCode, 200);
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'pending');
    w.mollie.setStatus(c.payment.provider_ref, 'paid');
    assert.equal((await hook(c.payment.provider_ref)).statusCode, 200);
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'finalized');
    const p = (await w.get(`/orders/${id}/payments`)).json();
    assert.deepEqual([p.payment_status, p.payments[0].state, p.payments[0].method], ['paid', 'confirmed', 'ideal']);
    await hook(c.payment.provider_ref);
    assert.equal((await w.events('order.paid', id)).length, 1);
  });

  test('an unknown or malformed id is answered without asking Mollie or changing anything', async () => {
    const calls = w.mollie.calls.length;
    assert.equal((await hook('tr_doesnotexist')).statusCode, 200);
    const bad = await w.t.request({ method: 'POST', url: '/api/v4/payments/mollie/webhook', payload: 'id=../../x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(w.mollie.calls.length, calls);
  });

  test('canceled on the payment page: the payment is canceled, the order still pending', async () => {
    const id = await w.order();
    const c = await checkout(id);
    w.mollie.setStatus(c.payment.provider_ref, 'canceled');
    await hook(c.payment.provider_ref);
    assert.equal((await w.get(`/orders/${id}/payments`)).json().payments[0].state, 'canceled');
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'pending');
  });

  test('a refund goes to Mollie with the payment’s currency', async () => {
    const id = await w.order();
    const c = await checkout(id);
    w.mollie.setStatus(c.payment.provider_ref, 'paid');
    await hook(c.payment.provider_ref);
    const r = await w.post(`/orders/${id}/refunds`, { amount_cents: 400, reason: 'goodwill' });
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual(r.json().refunds.map((x: { state: string; amount_cents: number }) => [x.state, x.amount_cents]), [['done', 400]]);
    assert.equal(w.mollie.payments.get(c.payment.provider_ref)!.refunded, 400);
    assert.equal((await w.get(`/orders/${id}/payments`)).json().payment_status, 'partially_refunded');
  });
});
