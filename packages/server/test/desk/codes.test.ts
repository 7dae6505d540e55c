// Gift cards and admission vouchers as basket lines at the box office, over HTTP: tickets, a
// 50 € card and a voucher sold for cash make two orders in one sale (the card in an order of its
// own), both paid by the desk, the card issued with its balance and the voucher issued, the change
// over the whole sale; the same form sent again sells nothing more. A gift card may not pay for
// gift cards, on the desk or through the API. The cashier's closing shows the tickets and voucher
// as sales with VAT, the card on the gift-card line, each once, and the cash from both expected.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn, staffUser, type Browser } from '../console/support.ts';
import { localDateOf } from '../../src/domain/time.ts';
import { add, count, keyOf, linesOf, orderIdOf } from './support.ts';

let fx: ConsoleFixture;
before(async () => (fx = await consoleFixture()));
after(() => fx.t.close());

const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('<main') + 1500);
const alertOf = (html: string) => html.slice(html.indexOf('role="alert"'), html.indexOf('role="alert"') + 400);
const rows = async <T>(q: ReturnType<typeof sql>) => (await fx.t.database.db.execute<T & Record<string, unknown>>(q)).rows;

async function basket(b: Browser, qty: Record<string, string>, extra: Record<string, string>) {
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(720) };
  const added = await add(b, form, qty, extra);
  assert.equal(added.statusCode, 200, alertOf(added.body));
  return { form, added, lines: linesOf(added.body) };
}

test('tickets + a gift card + a voucher: two orders in one sale, both paid, codes issued, resend sells nothing twice', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const { form, added, lines } = await basket(b, { [`q-T-${fx.A.ticketId}`]: '2', [`q-V-${fx.A.ticketId}`]: '1' }, { card_amount: '50', card_lang: 'de' });
  assert.deepEqual(lines.sort(), [`G:5000:de:1`, `T:${fx.A.ticketId}:${fx.at(720)}:2`, `V:${fx.A.ticketId}::1`].sort());
  assert.match(added.body, /data-cents="9200"/, '2 × 14 + a voucher of 14 + the card of 50');
  assert.match(added.body, /1 × Gift card €50\.00 \(DE\)/);
  assert.match(added.body, /id="given"[^>]*autofocus/, 'paying cash: the cash given is next');
  const before = { orders: await count(fx, 'orders'), payments: await count(fx, 'payments'), cards: await count(fx, 'gift_cards'), vouchers: await count(fx, 'single_purpose_vouchers') };
  const sellForm = { key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'cash', given: '100', delivery: 'print' };
  const sold = await b.post('/console/sale', sellForm);
  assert.equal(sold.statusCode, 303, alertOf(sold.body));
  const location = String(sold.headers.location);
  assert.match(location, /change=800(&|$)/, '100 given for 92');
  const first = orderIdOf(location);
  const second = Number(/cards=(\d+)/.exec(location)?.[1]);
  assert.ok(second > 0 && second !== first, location);
  const items = await rows<{ order_id: number; type: string }>(sql`select order_id, type from order_items where order_id in (${first}, ${second}) order by order_id, type`);
  assert.deepEqual(items.map((i) => [i.order_id, i.type]), [[first, 'Ticket'], [first, 'Voucher'], [second, 'GiftCard']], 'the card in an order of its own');
  const paid = await rows<{ id: number; total: number; paid: number; method: string; staff: number; n: number }>(sql`
    select o.id, o.total_price_cents total, sum(p.amount_cents)::int paid, o.payment_method method, o.staff_user_id staff, count(p.id)::int n
      from orders o join payments p on p.order_id = o.id and p.state = 'confirmed' and p.provider = 'desk' and p.method = 'cash'
     where o.id in (${first}, ${second}) group by o.id order by o.id`);
  const staffId = paid[0]!.staff;
  assert.deepEqual(paid, [
    { id: first, total: 4200, paid: 4200, method: 'cash', staff: staffId, n: 1 },
    { id: second, total: 5000, paid: 5000, method: 'cash', staff: staffId, n: 1 },
  ], 'each order paid in full by its own desk payment, both marked as the cashier\'s');
  const [card] = await rows<{ balance_cents: number }>(sql`select g.balance_cents from gift_cards g join order_items i on i.id = g.order_item_id where i.order_id = ${second}`);
  assert.equal(card?.balance_cents, 5000, 'the card is issued with its balance');
  const [voucher] = await rows<{ ticket_id: number }>(sql`select v.ticket_id from single_purpose_vouchers v join order_items i on i.id = v.order_item_id where i.order_id = ${first}`);
  assert.equal(voucher?.ticket_id, fx.A.ticketId, 'the voucher is issued for its ticket');
  const [audits] = await rows<{ n: number }>(sql`select count(*)::int n from audit_log where action = 'order.sell' and entity_id in (${String(first)}, ${String(second)})`);
  assert.equal(audits!.n, 2, 'one audit entry per order');
  const done = await b.get(location);
  assert.match(done.body, new RegExp(`Sold: order ${first}`));
  assert.match(done.body, new RegExp(`Sold: order ${second}`));
  assert.match(done.body, /Print gift card …/);
  assert.match(done.body, /Print admission voucher …/);

  // The same form again (a resend, a double click): the same two orders, nothing more.
  const again = await b.post('/console/sale', sellForm);
  assert.equal(again.statusCode, 303, alertOf(again.body));
  assert.equal(orderIdOf(again.headers.location), first);
  assert.match(String(again.headers.location), new RegExp(`cards=${second}`));
  assert.deepEqual(
    { orders: await count(fx, 'orders'), payments: await count(fx, 'payments'), cards: await count(fx, 'gift_cards'), vouchers: await count(fx, 'single_purpose_vouchers') },
    { orders: before.orders + 2, payments: before.payments + 2, cards: before.cards + 1, vouchers: before.vouchers + 1 },
  );
});

test('a gift card cannot pay for gift cards: refused on the desk and by the API, with the card untouched', async () => {
  const issued = await fx.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: fx.user, payload: { amount_cents: 3000 } });
  const code = issued.json().gift_card.code as string;
  const b = await signIn(fx.t, fx.staff.box_office);
  const orders = await count(fx, 'orders');
  const { form, lines } = await basket(b, {}, { card_amount: '25' });
  const res = await b.post('/console/sale', { key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'card', gc_code: code, delivery: 'print' });
  assert.equal(res.statusCode, 422);
  assert.match(res.body, /Gift cards cannot be paid with a gift card/);
  const invoiced = await b.post('/console/sale', { key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'invoice', delivery: 'print' });
  assert.equal(invoiced.statusCode, 422);
  assert.match(invoiced.body, /Gift cards are paid cash or by card, not on invoice/);
  assert.equal(await count(fx, 'orders'), orders, 'nothing sold');
  // The payment verb itself, through the API: refused for a gift-card order ...
  const cardOrder = await fx.t.request({ method: 'POST', url: '/api/v4/orders', token: fx.user, payload: { items: [{ type: 'GiftCard', attributes: { amount_cents: 2000 } }] } });
  assert.equal(cardOrder.statusCode, 201, cardOrder.body);
  const pay = (id: string) => fx.t.request({ method: 'POST', url: `/api/v4/orders/${id}/payments`, token: fx.user, payload: { provider: 'gift_card', code, amount_cents: 1000 } });
  const refused = await pay(cardOrder.json().order.id);
  assert.equal(refused.statusCode, 422, refused.body);
  assert.equal(refused.json().code, 'GIFT_CARD_PAYS_GIFT_CARD');
  const balance = async () => (await rows<{ b: number }>(sql`select balance_cents b from gift_cards where code_last4 = ${code.replace(/-/g, '').slice(-4)}`))[0]!.b;
  assert.equal(await balance(), 3000);
  // ... control: the same card pays a ticket order.
  const ticketOrder = await fx.order(fx.A);
  const ok = await pay(String(ticketOrder.id));
  assert.equal(ok.statusCode, 201, ok.body);
  assert.ok((await balance()) < 3000);
});

test('the closing after a basket sale of tickets + a 50 € card: sales with VAT, the card line, the cash, each once', async () => {
  const cashier = await staffUser(fx.t, 'box_office', [fx.A.id]);
  const b = await signIn(fx.t, cashier.email);
  const { form, lines } = await basket(b, { [`q-T-${fx.A.ticketId}`]: '2' }, { card_amount: '50' });
  const sold = await b.post('/console/sale', { key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'cash', given: '100', delivery: 'print' });
  assert.equal(sold.statusCode, 303, main(sold.body));
  assert.match(String(sold.headers.location), /change=2200/, '100 given for 28 + 50');
  const today = localDateOf(new Date(), 'Europe/Berlin');
  const page = await b.get(`/console/closing?date=${today}`);
  assert.equal(page.statusCode, 200);
  const cells = (label: string) => new RegExp(`<th scope="row">${label}</th>(.*?)</tr>`).exec(page.body)?.[1]?.match(/€[\d.,]+/g);
  // Sales: cash, card, invoice, total: the tickets only, not the card (control: 78.00 would be
  // the card counted as a sale as well).
  assert.deepEqual(cells('Sales'), ['€28.00', '€0.00', '€0.00', '€28.00']);
  assert.match(page.body, /Gift cards sold \(no VAT, in the cash expected\): cash €50\.00, card €0\.00, total €50\.00\./);
  assert.match(page.body, /<td>7 %<\/td><td class="num">€26\.17<\/td><td class="num">€1\.83<\/td><td class="num">€28\.00<\/td>/, 'VAT on the tickets only');
  assert.doesNotMatch(page.body, /<td>0 %<\/td>/, 'no 0 % VAT line for the card');
  const closed = await b.post('/console/closing', { date: today, float: '100', counted: '178' });
  assert.equal(closed.statusCode, 303, alertOf(closed.body));
  const [row] = await rows<{ expected_cash_cents: number; difference_cents: number; summary: { sales: { total: number }; gift_cards: { cash: number; total: number }; vat_total: { gross_cents: number } } }>(
    sql`select expected_cash_cents, difference_cents, summary from cash_closings where staff_user_id = ${cashier.id}`);
  assert.equal(row!.expected_cash_cents, 10_000 + 2800 + 5000, 'float + tickets + card, the card once');
  assert.equal(row!.difference_cents, 0);
  assert.equal(row!.summary.sales.total, 2800);
  assert.deepEqual([row!.summary.gift_cards.cash, row!.summary.gift_cards.total], [5000, 5000]);
  assert.equal(row!.summary.vat_total.gross_cents, 2800);
  // Control: the cash the drawer got is what both orders' desk payments hold, no more.
  const [drawer] = await rows<{ cents: number }>(sql`select sum(p.amount_cents)::int cents from payments p join orders o on o.id = p.order_id where o.staff_user_id = ${cashier.id} and p.provider = 'desk' and p.method = 'cash'`);
  assert.equal(drawer!.cents, 2800 + 5000);
});

test('a customer with an email on a basket of a ticket and a gift card: both orders name the customer', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const { form, lines } = await basket(b, { [`q-T-${fx.A.ticketId}`]: '1' }, { card_amount: '20,50', card_qty: '2' });
  assert.ok(lines.includes('G:2050:en:2') || lines.includes('G:2050:de:2'), lines.join(' '));
  const sold = await b.post('/console/sale', {
    key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'card', delivery: 'mail', name: 'Ada', surname: 'Lovelace', email: 'ada@example.org',
  });
  assert.equal(sold.statusCode, 303, alertOf(sold.body));
  const location = String(sold.headers.location);
  const ids = [orderIdOf(location), Number(/cards=(\d+)/.exec(location)?.[1])];
  const named = await rows<{ id: number; email: string; total: number }>(sql`
    select o.id, c.email, o.total_price_cents total from orders o join customers c on c.id = o.customer_id where o.id in (${ids[0]}, ${ids[1]}) order by o.id`);
  assert.deepEqual(named, [{ id: ids[0], email: 'ada@example.org', total: 1400 }, { id: ids[1], email: 'ada@example.org', total: 4100 }]);
  assert.equal((await rows<{ n: number }>(sql`select count(*)::int n from gift_cards g join order_items i on i.id = g.order_item_id where i.order_id = ${ids[1]}`))[0]!.n, 2);
  // A free amount outside the limits is refused when added, with nothing in the basket.
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const refused = await add(b, { key: keyOf(page.body), date: fx.day, time: fx.at(720) }, {}, { card_amount: '600' });
  assert.equal(refused.statusCode, 422);
  assert.match(refused.body, /A gift card is worth between €5 and €500\./);
  assert.match(refused.body, /id="card_amount"[^>]*aria-invalid="true"/);
  assert.deepEqual(linesOf(refused.body), []);
});

test('a gift card and a part payment in a basket with a gift card pay the other order only; cash and change over both', async () => {
  const issued = await fx.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: fx.user, payload: { amount_cents: 1000 } });
  const code = issued.json().gift_card.code as string;
  const b = await signIn(fx.t, fx.staff.box_office);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(720) };
  // The 25 € value button adds the typed tickets as well.
  const added = await b.post('/console/sale', { ...form, line: [], op: 'card-2500', [`q-T-${fx.A.ticketId}`]: '2', gc_code: code });
  assert.equal(added.statusCode, 200, alertOf(added.body));
  assert.match(added.body, /data-cents="5300"/);
  assert.match(added.body, /The gift card pays €10\.00, the rest €43\.00/);
  const sold = await b.post('/console/sale', {
    key: form.key, date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'cash', given: '50', part_method: 'card', part_amount: '5', gc_code: code, delivery: 'print',
  });
  assert.equal(sold.statusCode, 303, alertOf(sold.body));
  const location = String(sold.headers.location);
  assert.match(location, /change=1200(&|$)/, 'cash due 28 − 10 − 5 + 25 = 38; 50 given');
  const [first, second] = [orderIdOf(location), Number(/cards=(\d+)/.exec(location)?.[1])];
  const pays = await rows<{ order_id: number; provider: string; method: string; amount_cents: number }>(sql`
    select order_id, provider, method, amount_cents from payments where order_id in (${first}, ${second}) order by order_id, provider, method`);
  assert.deepEqual(pays, [
    { order_id: first, provider: 'desk', method: 'card', amount_cents: 500 },
    { order_id: first, provider: 'desk', method: 'cash', amount_cents: 1300 },
    { order_id: first, provider: 'gift_card', method: `card …${code.slice(-4)}`, amount_cents: 1000 },
    { order_id: second, provider: 'desk', method: 'cash', amount_cents: 2500 },
  ]);
  const marks = await rows<{ payment_method: string }>(sql`select payment_method from orders where id in (${first}, ${second}) order by id`);
  assert.deepEqual(marks.map((m) => m.payment_method), ['split', 'cash']);
});

test('a basket of tickets and a gift card for a named visitor makes two orders for one customer', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const { form, lines } = await basket(b, { [`q-T-${fx.A.ticketId}`]: '1' }, { card_amount: '30', card_lang: 'de' });
  const customers = await count(fx, 'customers');
  const sold = await b.post('/console/sale', {
    key: form.key, date: fx.day, line: lines, op: 'sell', payment: 'card', delivery: 'mail', name: 'Grete', surname: 'Geschenk', email: 'grete@example.org',
  });
  assert.equal(sold.statusCode, 303, alertOf(sold.body));
  const first = orderIdOf(sold.headers.location);
  const second = Number(/cards=(\d+)/.exec(String(sold.headers.location))?.[1]);
  const owners = await rows<{ customer_id: number | null }>(sql`select customer_id from orders where id in (${first}, ${second}) order by id`);
  assert.equal(owners.length, 2);
  assert.ok(owners[0]!.customer_id !== null && owners[0]!.customer_id === owners[1]!.customer_id, JSON.stringify(owners));
  assert.equal(await count(fx, 'customers'), customers + 1, 'one customer for the sale');
});
