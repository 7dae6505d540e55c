// Gift cards at the box office over HTTP: a card taken as part payment in the basket (its balance
// and the rest shown while adding, then a gift-card payment and a desk card payment for the rest,
// the card's ledger naming the payment, and the cash closing counting nothing as invoiced),
// refusals shown on the form with nothing sold; and a card sold on its own form, its code shown
// once and never again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { invoicedBy } from '../../src/db/repositories/cashClosings.ts';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn, staffUser } from '../console/support.ts';
import { add, count, keyOf, linesOf, orderIdOf } from './support.ts';

let fx: ConsoleFixture;
before(async () => (fx = await consoleFixture()));
after(() => fx.t.close());

const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('<main') + 1500);
async function issue(cents: number): Promise<{ id: number; code: string }> {
  const res = await fx.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: fx.user, payload: { amount_cents: cents } });
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().gift_card.id, code: res.json().gift_card.code };
}
const balanceOf = async (id: number) => (await fx.t.database.db.execute<{ b: number }>(sql`select balance_cents b from gift_cards where id = ${id}`)).rows[0]!.b;

test('split card + gift card: the card pays its balance, the terminal the rest; closing invoices nothing', async () => {
  const cashier = await staffUser(fx.t, 'box_office', [fx.A.id]);
  const b = await signIn(fx.t, cashier.email);
  const card = await issue(1000);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  assert.match(page.body, /id="gc_code"/);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(780) };
  const added = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '2' }, { gc_code: card.code.toLowerCase(), payment: 'card' });
  assert.equal(added.statusCode, 200, main(added.body));
  assert.match(added.body, /balance €10\.00/);
  assert.match(added.body, /The gift card pays €10\.00, the rest €18\.00/);
  assert.match(added.body, /data-gift="1000"/, 'the change preview leaves the card part out');
  const sold = await b.post('/console/sale', { key: form.key, date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'card', gc_code: card.code, delivery: 'print' });
  assert.equal(sold.statusCode, 303, main(sold.body));
  const id = orderIdOf(sold.headers.location);
  const db = fx.t.database.db;
  const pays = (await db.execute<{ provider: string; method: string; amount_cents: number }>(sql`select provider, method, amount_cents from payments where order_id = ${id} order by provider`)).rows;
  assert.deepEqual(pays, [{ provider: 'desk', method: 'card', amount_cents: 1800 }, { provider: 'gift_card', method: `card …${card.code.slice(-4)}`, amount_cents: 1000 }]);
  assert.equal((await db.execute<{ m: string }>(sql`select payment_method m from orders where id = ${id}`)).rows[0]!.m, 'split');
  assert.equal(await balanceOf(card.id), 0);
  const ledger = (await db.execute<{ kind: string; amount_cents: number }>(sql`select kind, amount_cents from gift_card_ledger where gift_card_id = ${card.id} order by id`)).rows;
  assert.deepEqual(ledger, [{ kind: 'issued', amount_cents: 1000 }, { kind: 'redeemed', amount_cents: -1000 }]);
  const day = new Date(Date.now() - 86_400_000);
  assert.equal((await invoicedBy(db, cashier.id, day, new Date(Date.now() + 86_400_000))).cents, 0, 'the gift-card part is paid, not due on invoice');
  const done = await b.get(String(sold.headers.location));
  assert.ok(!done.body.includes(card.code), 'the code is not shown after the sale');
  const cardPage = await b.get(`/console/gift-cards/${card.id}`);
  assert.ok(cardPage.body.includes(`redeemed · <a href="/console/orders/${id}">order ${id}</a>`), 'the ledger links the order it paid');
});

test('refusals on the form, everything typed kept, nothing sold and the card untouched', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const card = await issue(1500);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(810) };
  const added = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '1' });
  const lines = linesOf(added.body);
  const orders = await count(fx, 'orders');
  const cases: Array<[Record<string, string>, RegExp, string]> = [
    [{ gc_code: 'ABCD-EFGH-JKMN-PQRS-TVWX' }, /This code is not valid/, 'gc_code'],
    [{ gc_code: card.code, gc_amount: '20' }, /The gift card holds only €15\.00/, 'gc_amount'],
    [{ gc_code: card.code, gc_amount: '14,50' }, /more than the total \(€14\.00\)/, 'gc_amount'],
    [{ gc_code: card.code, gc_amount: 'zehn' }, /not an amount|amount/i, 'gc_amount'],
    [{ gc_amount: '5' }, /Please type the voucher code/, 'gc_code'],
  ];
  for (const [extra, message, field] of cases) {
    const res = await b.post('/console/sale', { key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'card', delivery: 'print', name: 'Kept Name', ...extra });
    assert.equal(res.statusCode, 422, `${JSON.stringify(extra)}: ${res.statusCode}`);
    assert.match(res.body, message);
    assert.match(res.body, new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
    assert.match(res.body, /value="Kept Name"/);
    if (extra.gc_amount) assert.ok(res.body.includes(`value="${extra.gc_amount}"`), 'the typed amount is kept');
  }
  assert.equal(await count(fx, 'orders'), orders);
  assert.equal(await balanceOf(card.id), 1500);
  // A part of the balance, the rest in cash with change.
  const sold = await b.post('/console/sale', { key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'cash', given: '10', gc_code: card.code, gc_amount: '5', delivery: 'print' });
  assert.equal(sold.statusCode, 303, main(sold.body));
  assert.match(String(sold.headers.location), /change=100/, '14 − 5 from the card = 9 cash; 10 given');
  assert.equal(await balanceOf(card.id), 1000);
});

test('a gift card sold at the desk: fixed or free value within the limits, the code shown once, in the closing', async () => {
  const cashier = await staffUser(fx.t, 'box_office', [fx.A.id]);
  const b = await signIn(fx.t, cashier.email);
  const form = await b.get('/console/sale/gift-card');
  assert.equal(form.statusCode, 200);
  for (const v of ['€25.00', '€50.00', '€100.00', 'Between €5.00 and €500.00']) assert.ok(form.body.includes(v), v);
  const cards = await count(fx, 'gift_cards');
  for (const [input, message] of [
    [{ amount: '600', payment: 'cash' }, /amount_cents must be between 500 and 50000/],
    [{ amount: 'viel', payment: 'cash' }, /amount/i],
    [{ payment: 'card' }, /Please choose a value or type an amount/],
    [{ value: '5000', payment: 'cash', given: '20' }, /the cash given is less than the cash due/],
  ] as const) {
    const res = await b.post('/console/sale/gift-card', { ...input, recipient: 'Oma Inge' });
    assert.equal(res.statusCode, 422, JSON.stringify(input));
    assert.match(res.body, message);
    assert.match(res.body, /value="Oma Inge"/, 'what was typed is kept');
  }
  assert.equal(await count(fx, 'gift_cards'), cards, 'nothing issued');
  const key = /name="key" value="([^"]+)"/.exec(form.body)![1]!;
  const sold = await b.post('/console/sale/gift-card', { key, amount: '30', payment: 'cash', given: '50', recipient: 'Oma Inge', language: 'de' });
  assert.equal(sold.statusCode, 200, main(sold.body));
  assert.equal(sold.headers['cache-control'], 'no-store');
  const code = /id="gift-code">([0-9A-Z-]+)</.exec(sold.body)![1]!;
  assert.match(code, /^([0-9A-Z]{4}-){4}[0-9A-Z]{4}$/);
  assert.match(sold.body, /Change: €20\.00/);
  const bal = await fx.t.request({ method: 'GET', url: `/api/v4/gift_cards/balance?code=${code}` });
  assert.equal(bal.json().balance_cents, 3000, 'the code shown is the card’s');
  const id = Number((await fx.t.database.db.execute<{ id: number }>(sql`select max(id)::int id from gift_cards`)).rows[0]!.id);
  const audit = (await fx.t.database.db.execute<{ after: Record<string, unknown> }>(sql`select after from audit_log where action = 'gift_card.sell' and entity_id = ${String(id)}`)).rows;
  assert.deepEqual(audit.map((a) => a.after), [{ amount_cents: 3000, method: 'cash', last4: code.slice(-4) }]);
  const later = await b.get(`/console/gift-cards/${id}`);
  assert.equal(later.statusCode, 200);
  assert.ok(!later.body.includes(code) && !later.body.includes(code.replace(/-/g, '')), 'never shown again');
  assert.ok(later.body.includes(`…${code.slice(-4)}`));
  assert.ok(!JSON.stringify(audit).includes(code.replace(/-/g, '')));
  const again = await b.post('/console/sale/gift-card', { key, amount: '30', payment: 'cash', given: '50', recipient: 'Oma Inge', language: 'de' });
  assert.equal(again.statusCode, 200);
  assert.match(again.body, new RegExp(`This form was sent already: gift card …${code.slice(-4)} is sold`));
  assert.ok(!again.body.includes(code), 'the repeat does not show the code');
  assert.equal(await count(fx, 'gift_cards'), cards + 1, 'a form sent twice sells one card');
  // Money taken without VAT: its own line in the cashier's closing and in the cash expected.
  await b.post('/console/sale/gift-card', { value: '2500', payment: 'card' });
  const closing = await b.get('/console/closing');
  assert.match(closing.body, /Gift cards sold \(no VAT, in the cash expected\): cash €30\.00, card €25\.00, total €55\.00/);
  assert.match(closing.body, /€30\.00/);
  const [row] = (await fx.t.database.db.execute<{ n: number; cents: number }>(sql`select count(*)::int n, sum(amount_cents)::int cents from desk_gift_card_sales where staff_user_id = ${cashier.id}`)).rows;
  assert.deepEqual(row, { n: 2, cents: 5500 });
  const closed = await b.post('/console/closing', { float: '0', counted: '30' });
  assert.equal(closed.statusCode, 303, main(closed.body));
  const rec = (await fx.t.database.db.execute<{ expected_cash_cents: number; difference_cents: number }>(sql`select expected_cash_cents, difference_cents from cash_closings where staff_user_id = ${cashier.id}`)).rows[0];
  assert.deepEqual(rec, { expected_cash_cents: 3000, difference_cents: 0 }, 'the cash for the card is expected in the drawer');
  const csv = await b.get(`${String(closed.headers.location).split('?')[0]}/csv`);
  assert.match(csv.body, /Gift cards sold \(no VAT\)/);
});
