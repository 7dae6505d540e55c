// Codes at the shop's checkout without JavaScript: a promo code on the way to the summary, gift
// cards paying part or all, a voucher that leaves nothing to pay. The core path and the ways it
// must not go wrong: checkout.test.ts.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { addTickets, checkout, payWithDemo, redirectOf, shopWorldWithMailFiles, Visitor } from './support.ts';

// Mails are written as .eml files here (no SMTP server in these tests).
const world = await shopWorldWithMailFiles();
after(() => world.close());
const { w } = world;

const orders = async () => Number((await w.t.database.db.execute<{ n: string }>(sql`select count(*) as n from orders where source = 'shop'`)).rows[0]!.n);

test('a promo code on the way to the summary: refusals in words with the code kept, then the discount as its own line', async () => {
  const staff = await w.t.token({ class: 'user' });
  const made = await w.t.request({ method: 'POST', url: '/api/v4/promo_codes', token: staff, payload: { promo_code: { code: 'SHOP-10', kind: 'percent', percent: 10, channels: ['shop'] } } });
  assert.equal(made.statusCode, 201, made.body);
  const tours = await w.t.request({ method: 'POST', url: '/api/v4/promo_codes', token: staff, payload: { promo_code: { code: 'TOURS5', kind: 'amount', amount_cents: 500, tour_ids: [w.tourId] } } });
  assert.equal(tours.statusCode, 201, tours.body);
  const v = new Visitor(w.t, { lang: 'en' });
  await addTickets(v, w, { regular: 2, min: 780 });
  const before = await orders();
  const details = { name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', consent: 'yes' };
  const typo = await v.post('/shop/checkout', { ...details, promo: 'SHOP-1O' });
  assert.equal(typo.statusCode, 422);
  assert.match(typo.body, /This promo code is not valid/);
  assert.match(typo.body, /name="promo"[^>]*value="SHOP-1O"/, 'what was typed is kept');
  assert.match(typo.body, /name="name"[^>]*value="Ada"/);
  const other = await v.post('/shop/checkout', { ...details, promo: 'tours5' });
  assert.match(other.body, /does not apply to the tickets in your cart/);
  const de = await v.post('/shop/checkout?lang=de', { ...details, promo: 'NOPE' });
  assert.match(de.body, /Dieser Aktionscode ist ungültig/);
  await v.get('/shop?lang=en');
  assert.equal(await orders(), before, 'a refused code places no order');
  const placed = redirectOf(await v.post('/shop/checkout', { ...details, promo: 'shop-10' }));
  const summary = await v.get(placed);
  // 2 × 14 € less 10 %: the line carries 25.20 €, the code's 2.80 € on its own line.
  assert.match(summary.body, /<tr class="discount"><th scope="row" colspan="2">Promo code SHOP10[^<]*<\/th><td class="num">−€2.80</);
  assert.match(summary.body, /Total<\/th><td class="num">€25.20</);
});

test('a gift card pays part at checkout and the provider the rest; another pays all; refusals in words, the code never shown back', async () => {
  const staff = await w.t.token({ class: 'user' });
  const issue = async (cents: number) => {
    const r = await w.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: staff, payload: { gift_card: { amount_cents: cents } } });
    assert.equal(r.statusCode, 201, r.body);
    return r.json().gift_card.code as string;
  };
  const small = await issue(1000);
  const v = new Visitor(w.t, { lang: 'en', ip: '10.1.1.1' });
  await addTickets(v, w, { regular: 2, min: 840 });
  const placed = redirectOf(await checkout(v));
  const typo = await v.post(`${placed}/gift_card`, { code: `${small.slice(0, -1)}${small.endsWith('A') ? 'B' : 'A'}` });
  const shown = await v.get(redirectOf(typo));
  assert.match(shown.body, /This gift card code is not valid/);
  assert.doesNotMatch(shown.body, new RegExp(small.slice(0, 8)), 'the typed code is not shown back');
  assert.equal(redirectOf(await v.post(`${placed}/gift_card`, { code: small.toLowerCase() })), `${placed}?gift_card=ok#gift-card`);
  const part = await v.get(placed);
  // 28 € total, 10 € from the card: the provider's button asks for 18 €.
  assert.match(part.body, /Gift card payment \(card …[A-Z0-9]{4}\)<\/th><td class="num">−€10.00</);
  assert.match(part.body, /Still to pay<\/th><td class="num">€18.00</);
  assert.match(part.body, /Pay €18.00/);
  const empty = await v.get(redirectOf(await v.post(`${placed}/gift_card`, { code: small })));
  assert.match(empty.body, /This gift card has no balance left/);
  const done = await payWithDemo(v, w.t, placed);
  assert.match(done.body, /Thank you for your order/);
  const pays = (await w.t.database.db.execute<{ provider: string; amount_cents: number; state: string }>(sql`
    select provider, amount_cents, state from payments where order_id = (select id from orders where token = ${placed.split('/').pop()}) order by id`)).rows;
  assert.deepEqual(pays.map((p) => [p.provider, p.amount_cents, p.state]), [['gift_card', 1000, 'confirmed'], ['demo', 1800, 'confirmed']]);

  const big = await issue(5000);
  const u = new Visitor(w.t, { lang: 'de', ip: '10.1.1.2' });
  await addTickets(u, w, { regular: 1, min: 870 });
  const second = redirectOf(await checkout(u));
  await u.post(`${second}/gift_card`, { code: big });
  const whole = await u.get(second);
  assert.match(whole.body, /Vielen Dank|bestätigt/i, 'a card that covers the total finalizes the order');
  assert.match(whole.body, /href="\/shop\/manage\/mb_/);
});

test('personalised tickets ask each person\'s name on the details form and store them on the order item', async () => {
  const db = w.t.database.db;
  const q = await f.quota(db, { museumId: w.museumId, capacity: 20 });
  const named = await f.ticket(db, { museumId: w.museumId, quotaIds: [q.id], title: { de: 'Kuratorenticket', en: 'Curator ticket' }, attendees: 'required', minPersons: 1, maxPersons: 4 });
  const v = new Visitor(w.t, { lang: 'en' });
  assert.equal(redirectOf(await v.post('/shop/cart/tickets', { ticket: named.id, slot: w.slot(600), [`q_${named.id}`]: 2 })), '/shop/cart');
  const form = await v.get('/shop/checkout');
  assert.match(form.body, /<legend>Names for Curator ticket \(one per person\)<\/legend>/);
  assert.match(form.body, /name="a_1_2_surname"[^>]* required/);
  const details = { name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', consent: 'yes' };
  const missing = await v.post('/shop/checkout', { ...details, a_1_1_name: 'Grace', a_1_1_surname: 'Hopper', a_1_2_name: 'Alan', a_1_2_surname: '' });
  assert.equal(missing.statusCode, 422);
  assert.match(missing.body, /Please enter the first name and surname of every person/);
  assert.match(missing.body, /name="a_1_1_surname"[^>]*value="Hopper"/, 'what was typed is kept');
  const placed = redirectOf(await v.post('/shop/checkout', { ...details, a_1_1_name: 'Grace', a_1_1_surname: 'Hopper', a_1_2_name: 'Alan', a_1_2_surname: 'Turing' }));
  const row = (await db.execute<{ attendees: unknown }>(sql`
    select oi.attendees from order_items oi join orders o on o.id = oi.order_id where o.token = ${placed.split('/').pop()}`)).rows[0]!;
  assert.deepEqual(row.attendees, [{ name: 'Grace', surname: 'Hopper' }, { name: 'Alan', surname: 'Turing' }]);
});

test('a voucher that leaves nothing to pay: the order is confirmed without a provider', async () => {
  const staff = await w.t.token({ class: 'user' });
  const issued = await w.t.request({ method: 'POST', url: '/api/v4/vouchers', token: staff, payload: { ticket_id: w.regular } });
  assert.equal(issued.statusCode, 201, issued.body);
  const { id, code } = issued.json().voucher as { id: number; code: string };
  const v = new Visitor(w.t, { lang: 'en' });
  await addTickets(v, w, { regular: 1, min: 900 });
  const placed = redirectOf(await v.post('/shop/checkout', { name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', consent: 'yes', promo: code }));
  const token = placed.split('/').pop()!;
  const pending = (await w.t.database.db.execute<{ status: string; total_price_cents: number }>(sql`select status, total_price_cents from orders where token = ${token}`)).rows[0]!;
  assert.deepEqual([pending.status, pending.total_price_cents], ['pending', 0]);
  const confirmed = await v.get(redirectOf(await v.post(`${placed}/pay`, {})));
  assert.match(confirmed.body, /Thank you for your order/);
  const row = (await w.t.database.db.execute<{ status: string; n: string }>(sql`
    select o.status, (select count(*) from payments p where p.order_id = o.id) as n from orders o where o.token = ${token}`)).rows[0]!;
  assert.deepEqual([row.status, Number(row.n)], ['finalized', 0], 'binding, and no provider was asked');
  const voucher = await w.t.request({ method: 'GET', url: `/api/v4/vouchers/${id}`, token: staff });
  assert.ok(voucher.json().voucher.redeemed_at, 'the voucher is redeemed');
});
