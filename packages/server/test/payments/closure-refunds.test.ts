// A closure that cancels paid orders gives their money back through the refund verb: the
// cancelled items' amount is reserved in the closure's transaction and sent to the provider after
// the commit (Stripe stand-in, desk), audited with the caller; unpaid orders get nothing, and the
// cancellation's credit note is issued as for any cancellation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
});
after(() => w.close());

const money = async (id: number) => (await w.get(`/orders/${id}/payments`)).json();

test('closing a day refunds what its paid orders paid for the cancelled items', async () => {
  const admin = await w.t.token({ class: 'user' });
  const byStripe = await w.order(2, 600);
  const { sessionId } = await stripeCheckout(w, byStripe);
  w.stripe.pay(sessionId);
  assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
  const atDesk = await w.order(1, 630);
  assert.equal((await w.post(`/orders/${atDesk}/payments`, { provider: 'desk', amount_cents: 1400, method: 'cash' })).statusCode, 201);
  const unpaid = (await w.post('/orders', { finalize: true, items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(660) } }] })).json().order.id as number;
  const stripeBefore = w.stripe.refunds.length;

  const res = await w.t.request({ method: 'POST', url: '/api/v4/closures', token: admin, payload: { closure: { museum_id: w.museumId, start_date: f.localDate(4), reason: 'Sturm', cancel_orders: true } } });
  assert.equal(res.statusCode, 201, res.body);
  assert.deepEqual(res.json().affected.order_ids, [byStripe, atDesk, unpaid]);

  const a = await money(byStripe);
  assert.deepEqual(a.refunds.map((r: { amount_cents: number; state: string; reason: string }) => [r.amount_cents, r.state, r.reason]), [[2800, 'done', 'museum closed']]);
  assert.equal(a.payment_status, 'refunded');
  assert.deepEqual(w.stripe.refunds.slice(stripeBefore).map((r) => r.amount), [2800], 'Stripe returned it once');
  const b = await money(atDesk);
  assert.deepEqual([b.refunds.map((r: { amount_cents: number }) => r.amount_cents), b.payment_status], [[1400], 'refunded']);
  assert.equal((await money(unpaid)).refunds.length, 0, 'nothing was paid, nothing goes back');
  for (const id of [byStripe, atDesk, unpaid]) assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'cancelled');

  // Who caused it is in the audit log and on the refund: the token that closed the day.
  const refund = a.refunds[0];
  assert.match(refund.created_by, /^account:\d+$/);
  assert.deepEqual((await w.audit('refund', refund.id)).map((x) => [x.action, x.actor]), [['refund.created', refund.created_by], ['refund.done', refund.created_by]]);
  assert.equal((await w.events('refund.succeeded', byStripe)).length, 1);

  // The cancellation's documents are as for any cancellation: a credit note where there was an invoice.
  const docs = await w.t.database.db.execute<{ order_id: number; kind: string }>(sql`select order_id, kind from documents where order_id in (${byStripe}, ${atDesk}) order by id`);
  for (const id of [byStripe, atDesk]) {
    const kinds = docs.rows.filter((d) => d.order_id === id).map((d) => d.kind);
    assert.equal(kinds.includes('credit_note'), kinds.includes('invoice'), `order ${id}: ${kinds.join(',')}`);
  }
});
