// Money that arrives after the order expired buys its places when they are still sellable: the
// places are claimed again through the capacity module and the order is finalized (barcodes,
// order.paid), once however often the provider repeats itself. The claim counts: the revived
// order's place is no longer free for others. When the places were sold meanwhile the payment is
// refunded (late-and-missing.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { systemCtx } from '../../src/domain/context.ts';
import { sweepExpiredAllocations } from '../../src/domain/capacity/sweepExpired.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld({ capacity: 2 });
});
after(() => w.close());

const orderJson = async (id: number) => (await w.get(`/orders/${id}`)).json().order;

describe('late money, places still free', () => {
  test('an expired order whose places are free is finalized with barcodes after late payment', async () => {
    const late = await w.order(2, 600);
    const { paymentId, sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(31);
    assert.equal((await orderJson(late)).status, 'expired');
    w.stripe.pay(sessionId);
    assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
    const o = await orderJson(late);
    assert.equal(o.status, 'finalized');
    assert.equal(o.items[0].attributes.barcodes.length, 2);
    const p = (await w.get(`/orders/${late}/payments`)).json();
    assert.deepEqual([p.payment_status, p.payments[0].state, p.refunds.length], ['paid', 'confirmed', 0]);
    assert.equal(w.stripe.refunds.length, 0);
    assert.equal((await w.events('order.paid', late)).length, 1);
    assert.equal((await w.events('order.finalized', late)).length, 1);
    assert.ok((await w.audit('payment', paymentId)).some((a) => a.action === 'payment.confirmed'));
    // The places are taken again for real: the slot (capacity 2) is sold out for anybody else.
    const other = await w.post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(600) } }] });
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(other.json().code, 'SLOT_SOLD_OUT');
  });

  test('the same late webhook three times finalizes once', async () => {
    const late = await w.order(1, 660);
    const { sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(31);
    w.stripe.pay(sessionId);
    const answers = await Promise.all([1, 2, 3].map(() => stripeWebhook(w, 'checkout.session.completed', sessionId)));
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200]);
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    const o = await orderJson(late);
    assert.equal(o.status, 'finalized');
    assert.equal(o.items[0].attributes.barcodes.length, 1);
    assert.equal((await w.events('order.finalized', late)).length, 1);
    assert.equal((await w.events('order.paid', late)).length, 1);
    assert.equal(w.stripe.refunds.length, 0);
    // One place of two taken: one left.
    const other = await w.post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 2, time: w.at(660) } }] });
    assert.equal(other.json().code, 'SLOT_SOLD_OUT', other.body);
  });

  test('after the expiry job released its places, they are claimed again all the same', async () => {
    const late = await w.order(1, 780);
    const { sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(45);
    const ctx = systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config });
    assert.ok((await sweepExpiredAllocations(ctx)) >= 1);
    w.stripe.pay(sessionId);
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    const o = await orderJson(late);
    assert.equal(o.status, 'finalized');
    assert.equal(o.items[0].attributes.barcodes.length, 1);
    assert.equal(w.stripe.refunds.length, 0);
    // Counted once: one of the two places is left.
    const two = await w.post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 2, time: w.at(780) } }] });
    assert.equal(two.json().code, 'SLOT_SOLD_OUT', two.body);
    const one = await w.post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(780) } }] });
    assert.equal(one.statusCode, 201, one.body);
  });

  test('partly sold meanwhile: no place is claimed and the money goes back in full', async () => {
    const late = await w.order(2, 720);
    const { sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(31);
    const other = await w.post('/orders', { items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(720) } }], finalize: true });
    assert.equal(other.statusCode, 201, other.body);
    w.stripe.pay(sessionId);
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    assert.equal((await orderJson(late)).status, 'expired');
    const p = (await w.get(`/orders/${late}/payments`)).json();
    assert.equal(p.payment_status, 'refunded');
    assert.match(p.payments[0].failure, /order expired.*could not be claimed again/);
    // The one place left is still free: the refused claim left nothing behind.
    const last = await w.post('/orders', { items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(720) } }], finalize: true });
    assert.equal(last.statusCode, 201, last.body);
  });

  // Last: the closure covers the whole day of every slot above.
  test('closed meanwhile: the money goes back in full and the order is not finalized', async () => {
    const late = await w.order(1, 840);
    const { sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(31);
    const owner = await w.t.token({ class: 'user' });
    const day = w.at(840).slice(0, 10);
    const c = await w.post('/closures', { museum_id: w.museumId, start_date: day, reason: 'Water damage' }, owner);
    assert.equal(c.statusCode, 201, c.body);
    w.stripe.pay(sessionId);
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    assert.notEqual((await orderJson(late)).status, 'finalized');
    const p = (await w.get(`/orders/${late}/payments`)).json();
    assert.equal(p.payment_status, 'refunded');
    assert.match(p.payments[0].failure, /Water damage/);
    assert.deepEqual(w.stripe.refunds.at(-1)?.amount, 1400);
  });
});
