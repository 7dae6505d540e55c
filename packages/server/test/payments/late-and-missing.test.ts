// When the webhook never comes, the reconcile job (every minute) asks Stripe and settles the
// order. When the money comes after the order expired and its place was sold meanwhile, the
// payment is refunded in full at once, the reason is recorded and the refund's event is sent
// (late money for places still free: late-revive.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { systemCtx } from '../../src/domain/context.ts';
import { TASKS } from '../../src/db/repositories/jobQueue.ts';
import { CRON_ITEMS } from '../../src/jobs/cron.ts';
import { taskList } from '../../src/jobs/worker.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld({ capacity: 1 });
});
after(() => w.close());

const runReconcile = async () => {
  const ctx = systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config });
  const tasks = taskList(ctx, { scanner: undefined as never, renderers: undefined as never });
  await (tasks[TASKS.reconcilePayments] as (p: unknown, h: unknown) => Promise<void>)({}, {});
};

describe('no webhook, late money', () => {
  test('the reconcile job is a cron task every minute', () => {
    assert.equal(CRON_ITEMS.find((c) => c.task === TASKS.reconcilePayments)?.match, '* * * * *');
  });

  test('no webhook at all: the reconcile job asks Stripe and finalizes the order', async () => {
    const id = await w.order(1, 600);
    const { paymentId, sessionId } = await stripeCheckout(w, id);
    w.stripe.pay(sessionId);
    await runReconcile();
    // Not yet: the job leaves fresh payments to their webhook.
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'pending');
    w.t.clock.advanceMinutes(4);
    await runReconcile();
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'finalized');
    assert.equal((await w.events('order.paid', id)).length, 1);
    assert.deepEqual((await w.audit('payment', paymentId)).at(-1), { action: 'payment.confirmed', actor: 'reconcile' });
    await runReconcile();
    assert.equal((await w.events('order.paid', id)).length, 1);
  });

  test('money after expiry with the place sold meanwhile is refunded in full at once', async () => {
    const late = await w.order(1, 660);
    const { paymentId, sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(31); // the order expires; its place is free again
    const other = await w.post('/orders', { items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(660) } }], finalize: true });
    assert.equal(other.statusCode, 201, other.body);
    w.stripe.pay(sessionId); // the visitor paid anyway, on a tab left open
    assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
    const p = (await w.get(`/orders/${late}/payments`)).json();
    assert.equal(p.payment_status, 'refunded');
    assert.equal(p.payments[0].state, 'refunded');
    assert.match(p.payments[0].failure, /order expired/);
    assert.equal(p.refunds.length, 1);
    assert.deepEqual([p.refunds[0].amount_cents, p.refunds[0].state, p.refunds[0].created_by], [1400, 'done', 'late-payment']);
    assert.deepEqual(w.stripe.refunds.map((r) => r.amount), [1400]);
    assert.equal((await w.get(`/orders/${late}`)).json().order.status, 'expired');
    const ev = await w.events('refund.succeeded', late);
    assert.equal(ev.length, 1);
    assert.match(String((ev[0]!.data as { refund: { reason: string } }).refund.reason), /order expired/);
    assert.equal((await w.events('order.paid', late)).length, 0);
    assert.ok((await w.audit('payment', paymentId)).some((a) => a.action === 'payment.confirmed'));
    // Repeated notifications do not refund twice.
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    assert.deepEqual(w.stripe.refunds.map((r) => r.amount), [1400]);
  });

  test('a refund left pending (no answer) is sent again by the job under the same key, once', async () => {
    const late = await w.order(1, 720);
    const { sessionId } = await stripeCheckout(w, late);
    w.t.clock.advanceMinutes(31);
    // Its place is sold meanwhile, so the late money goes back (a free place would be claimed again).
    const other = await w.post('/orders', { items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(720) } }], finalize: true });
    assert.equal(other.statusCode, 201, other.body);
    w.stripe.pay(sessionId);
    w.stripe.dropRefunds = true;
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    w.stripe.dropRefunds = false;
    let p = (await w.get(`/orders/${late}/payments`)).json();
    assert.equal(p.refunds[0].state, 'pending');
    assert.match(p.refunds[0].failure, /no answer/);
    const made = w.stripe.refunds.length;
    w.t.clock.advanceMinutes(4);
    await runReconcile();
    p = (await w.get(`/orders/${late}/payments`)).json();
    assert.deepEqual([p.refunds[0].state, p.payment_status], ['done', 'refunded']);
    assert.equal(w.stripe.refunds.length, made, 'Stripe made it once, before the connection dropped');
  });
});
