// Promo codes and admission vouchers redeemed at the box office, over HTTP: the code field takes a
// promo code and a voucher onto the basket, the total shown is the orders' own discounted total,
// the sale takes one use and redeems the voucher in its transaction, and a resent form takes
// nothing twice. Refusals keep the basket as it was and say why: a code for another channel, a
// redeemed voucher, a code before any ticket, a gift-card basket; a code that stops applying when
// a line is removed leaves the basket with a message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn, type Browser } from '../console/support.ts';
import { add, count, keyOf, linesOf, orderIdOf } from './support.ts';

let fx: ConsoleFixture;
let b: Browser;
let voucher = '';
before(async () => {
  fx = await consoleFixture();
  b = await signIn(fx.t, fx.staff.box_office);
  const post = async (url: string, payload: Record<string, unknown>) => {
    const r = await fx.t.request({ method: 'POST', url: `/api/v4${url}`, token: fx.user, payload });
    assert.equal(r.statusCode, 201, r.body);
    return r.json();
  };
  await post('/promo_codes', { code: 'DESK20', kind: 'percent', percent: 20, channels: ['desk'] });
  await post('/promo_codes', { code: 'SHOPONLY', kind: 'percent', percent: 50, channels: ['shop'] });
  await post('/promo_codes', { code: 'TWOPLUS', kind: 'amount', amount_cents: 300, min_quantity: 2 });
  voucher = (await post('/vouchers', { ticket_id: fx.A.ticketId })).voucher.code;
  assert.ok(voucher.length >= 16);
});
after(() => fx.t.close());

const alertOf = (html: string) => html.slice(html.indexOf('role="alert"'), html.indexOf('role="alert"') + 600);
const codesOf = (html: string) => [...html.matchAll(/name="code" value="([^"]+)"/g)].map((m) => m[1]!);
const totalOf = (html: string) => Number(/id="total" data-cents="(\d+)"/.exec(html)?.[1]);
const codeField = (html: string) => /<input id="code_new"[^>]*>/.exec(html)?.[0] ?? '';
const uses = async (code: string) => (await fx.t.database.db.execute<{ uses: number }>(sql`select uses from promo_codes where code = ${code}`)).rows[0]!.uses;

async function start() {
  const page = await b.get(`/console/sale?date=${fx.day}&lang=en`);
  return { key: keyOf(page.body), date: fx.day, time: fx.at(600) };
}

test('a promo code and a voucher at the desk: discounted total, one use taken, voucher redeemed, resend takes nothing twice', async () => {
  const form = await start();
  const two = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '2' }, { code_new: 'desk-20' });
  assert.equal(two.statusCode, 200, alertOf(two.body));
  assert.deepEqual(codesOf(two.body), ['desk-20'], 'the code is carried by the form');
  assert.equal(totalOf(two.body), 2240, '2 × 14.00 less 20 %');
  assert.match(two.body, /Code DESK20<\/td><td class="num">−€5\.60/);
  assert.equal(codeField(two.body).includes('value=""'), true, 'the field is emptied once the code is taken');

  const lines = linesOf(two.body);
  const other = await b.post('/console/sale', { ...form, line: lines, code: ['desk-20'], op: 'code', code_new: 'shoponly' });
  assert.equal(other.statusCode, 422);
  assert.match(alertOf(other.body), /Code SHOPONLY: This code does not apply to this order\./);
  assert.match(codeField(other.body), /value="shoponly"[^>]*aria-invalid="true" autofocus/, 'the refused code stays typed, marked');
  assert.deepEqual(codesOf(other.body), ['desk-20'], 'the taken code stays');
  assert.equal(totalOf(other.body), 2240, 'nothing changed');

  const both = await b.post('/console/sale', { ...form, line: lines, code: ['desk-20'], op: 'code', code_new: voucher.toLowerCase() });
  assert.equal(both.statusCode, 200, alertOf(both.body));
  const last4 = voucher.replace(/-/g, '').slice(-4);
  assert.match(both.body, new RegExp(`Code …${last4}</td><td class="num">−€14\\.00`), 'the voucher named by its last four characters');
  assert.equal(totalOf(both.body), 1120, 'one admission free, then 20 % off the other');

  const beforeOrders = await count(fx, 'orders');
  const sell = { ...form, line: lines, code: codesOf(both.body), op: 'sell', payment: 'cash', given: '20', delivery: 'print' };
  const sold = await b.post('/console/sale', sell);
  assert.equal(sold.statusCode, 303, alertOf(sold.body));
  assert.match(String(sold.headers.location), /change=880(&|$)/);
  const orderId = orderIdOf(sold.headers.location);
  const db = fx.t.database.db;
  const [order] = (await db.execute<{ total: number; paid: number }>(sql`
    select o.total_price_cents total, (select sum(amount_cents)::int from payments p where p.order_id = o.id and p.state = 'confirmed') paid from orders o where o.id = ${orderId}`)).rows;
  assert.deepEqual(order, { total: 1120, paid: 1120 }, 'the order charges what the basket showed');
  const discounts = (await db.execute<{ amount_cents: number; promo: boolean }>(sql`select amount_cents, promo_code_id is not null promo from order_discounts where order_id = ${orderId} order by amount_cents`)).rows;
  assert.deepEqual(discounts, [{ amount_cents: 280, promo: true }, { amount_cents: 1400, promo: false }]);
  assert.equal(await uses('DESK20'), 1);
  const [v] = (await db.execute<{ order_id: number }>(sql`select order_id from single_purpose_vouchers where code_last4 = ${last4}`)).rows;
  assert.equal(v?.order_id, orderId, 'the voucher is redeemed by the sale');
  const [audit] = (await db.execute<{ after: unknown }>(sql`select after from audit_log where action = 'order.sell' and entity_id = ${String(orderId)}`)).rows;
  assert.ok(JSON.stringify(audit?.after).includes(`…${last4}`), 'the audit entry names the discounts');
  assert.ok(!JSON.stringify(audit?.after).includes(voucher.replace(/-/g, '')), 'never the voucher code');

  const again = await b.post('/console/sale', sell);
  assert.equal(again.statusCode, 303, alertOf(again.body));
  assert.equal(orderIdOf(again.headers.location), orderId, 'the resent form answers with the same order');
  assert.equal(again.headers.location, sold.headers.location, 'the same notice, with the same change');
  assert.equal(await count(fx, 'orders'), beforeOrders + 1);
  assert.equal(await uses('DESK20'), 1, 'no second use');

  const redeemed = await add(b, await start(), { [`q-T-${fx.A.ticketId}`]: '1' }, { code_new: voucher });
  assert.equal(redeemed.statusCode, 422);
  assert.match(alertOf(redeemed.body), new RegExp(`Code …${last4}: This code has been used up\\.`));
  assert.ok(!alertOf(redeemed.body).includes(voucher), 'the message names the voucher by its last four characters only');
  assert.equal(totalOf(redeemed.body), 1400, 'the ticket is added, the code is not');
});

test('a code with nothing to discount is refused: an empty basket, a basket of gift cards', async () => {
  const form = await start();
  const empty = await b.post('/console/sale', { ...form, line: [], op: 'code', code_new: 'DESK20' });
  assert.equal(empty.statusCode, 422);
  assert.match(alertOf(empty.body), /Add the tickets to the basket first, then redeem the code\./);
  const cards = await add(b, form, {}, { card_amount: '25', code_new: 'DESK20' });
  assert.equal(cards.statusCode, 422);
  assert.match(alertOf(cards.body), /Code DESK20: This code does not apply to this order\./);
  assert.deepEqual(codesOf(cards.body), []);
  assert.equal(totalOf(cards.body), 2500, 'the card is added without the code');
});

test('a code that stops applying when a line is removed leaves the basket with a message', async () => {
  const form = await start();
  const first = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '1' });
  const second = await add(b, { ...form, time: fx.at(630), lines: linesOf(first.body) }, { [`q-T-${fx.A.ticketId}`]: '1' }, { code_new: 'twoplus' });
  assert.equal(second.statusCode, 200, alertOf(second.body));
  assert.equal(totalOf(second.body), 2500, 'two admissions at 14.00 less 3.00');
  const removed = await b.post('/console/sale', { ...form, line: linesOf(second.body), code: codesOf(second.body), op: 'remove-1' });
  assert.equal(removed.statusCode, 422);
  assert.match(alertOf(removed.body), /Code TWOPLUS no longer applies and was taken off: This code does not apply to this order\./);
  assert.deepEqual(codesOf(removed.body), []);
  assert.equal(totalOf(removed.body), 1400);
  const sold = await b.post('/console/sale', { ...form, line: linesOf(removed.body), code: codesOf(removed.body), op: 'sell', payment: 'card', delivery: 'print' });
  assert.equal(sold.statusCode, 303, alertOf(sold.body));
  assert.equal(await uses('TWOPLUS'), 0);
});
