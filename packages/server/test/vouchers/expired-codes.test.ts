// Codes held by an order that expired unpaid go back once it has been expired for the sweep's
// grace period: a promo code's last use taken by an abandoned checkout is free again (control: it
// is refused while the order still holds it), and a voucher redeemed by it is valid again. Money
// that arrives afterwards revives the order and takes the codes again; when the last use went to
// another order meanwhile the revival is refused, the money refunded, and the use stays with the
// order that has it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { systemCtx } from '../../src/domain/context.ts';
import { returnCodesOfExpiredOrders } from '../../src/domain/vouchers/expiredCodes.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from '../payments/support.ts';

let w: PaymentsWorld;
let admin = '';
before(async () => {
  w = await paymentsWorld({ capacity: 20 });
  admin = await w.t.token({ class: 'user' });
});
after(() => w.close());

const ctx = () => systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config });
const uses = async (code: string) => (await w.t.database.db.execute<{ uses: number }>(sql`select uses from promo_codes where code = ${code}`)).rows[0]!.uses;
const place = (codes: string[], min: number, quantity = 1) =>
  w.post('/orders', { finalize: false, codes, customer: { name: 'Ada', surname: 'Lovelace', email: 'ada@example.org' }, items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity, time: w.at(min) } }] });
const status = async (id: number) => (await w.get(`/orders/${id}`)).json().order.status;

test('the last use of an abandoned checkout goes back; late money for it is refunded once another order took the use', async () => {
  assert.equal((await w.post('/promo_codes', { code: 'LAST1', kind: 'amount', amount_cents: 200, max_uses: 1 }, admin)).statusCode, 201);
  const first = await place(['LAST1'], 600);
  assert.equal(first.statusCode, 201, first.body);
  const abandoned = first.json().order.id as number;
  const { sessionId } = await stripeCheckout(w, abandoned);
  assert.equal(await uses('LAST1'), 1);
  // Control: while the pending order holds it, the code is used up for anybody else.
  assert.equal((await place(['LAST1'], 630)).json().code, 'CODE_EXHAUSTED');
  w.t.clock.advanceMinutes(31);
  assert.equal(await status(abandoned), 'expired');
  assert.equal(await returnCodesOfExpiredOrders(ctx()), 0, 'not within the grace period');
  assert.equal(await uses('LAST1'), 1);
  w.t.clock.advanceMinutes(6);
  assert.equal(await returnCodesOfExpiredOrders(ctx()), 1);
  assert.equal(await returnCodesOfExpiredOrders(ctx()), 0, 'a second run changes nothing');
  assert.equal(await uses('LAST1'), 0, 'the use is back');
  assert.ok((await w.audit('promo_code', (await w.get('/promo_codes', admin)).json().promo_codes.find((c: { code: string }) => c.code === 'LAST1').id)).some((a) => a.action === 'promo_code.use_returned'));
  const second = await place(['LAST1'], 630);
  assert.equal(second.statusCode, 201, second.body);
  assert.equal(await uses('LAST1'), 1);
  // The abandoned order's money arrives after all: its code is gone, so it is refunded.
  w.stripe.pay(sessionId);
  assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
  assert.equal(await status(abandoned), 'expired');
  const p = (await w.get(`/orders/${abandoned}/payments`)).json();
  assert.equal(p.payment_status, 'refunded');
  assert.equal(await uses('LAST1'), 1, 'the use stays with the order that has it');
});

test('a voucher and a promo code given back are taken again by late money', async () => {
  assert.equal((await w.post('/promo_codes', { code: 'LATE10', kind: 'percent', percent: 10 }, admin)).statusCode, 201);
  const v = await w.post('/vouchers', { ticket_id: w.ticketId }, admin);
  assert.equal(v.statusCode, 201, v.body);
  const voucher = v.json().voucher as { id: number; code: string };
  const placed = await place([voucher.code, 'LATE10'], 660, 2);
  assert.equal(placed.statusCode, 201, placed.body);
  const id = placed.json().order.id as number;
  const total = placed.json().order.total_price_cents as number;
  const { sessionId } = await stripeCheckout(w, id);
  const held = async () => (await w.t.database.db.execute<{ order_id: number | null }>(sql`select order_id from single_purpose_vouchers where id = ${voucher.id}`)).rows[0]!.order_id;
  assert.equal(await held(), id);
  w.t.clock.advanceMinutes(37);
  assert.equal(await returnCodesOfExpiredOrders(ctx()), 2, 'this order and the first test\'s second one, unpaid too');
  assert.equal(await uses('LAST1'), 0);
  assert.equal(await held(), null, 'the voucher is valid again');
  assert.equal(await uses('LATE10'), 0);
  w.stripe.pay(sessionId);
  assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
  const o = (await w.get(`/orders/${id}`)).json().order;
  assert.equal(o.status, 'finalized');
  assert.equal(o.total_price_cents, total, 'the price it was paid at');
  assert.equal(await held(), id, 'the voucher is redeemed by the order again');
  assert.equal(await uses('LATE10'), 1);
  assert.equal(w.stripe.refunds.length, 1, 'only the first test\'s refund');
});
