// The box office's basket over HTTP: a family (2 adults + 1 reduced) in one sale with cash and
// change, a split payment (card + cash) recorded through the payments module, an error shown on
// the form with everything typed kept, and the basket's total computed by the server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn } from '../console/support.ts';
import { add, count, keyOf, linesOf, orderIdOf, reducedTicket } from './support.ts';

let fx: ConsoleFixture;
let reduced: number;
before(async () => {
  fx = await consoleFixture();
  reduced = await reducedTicket(fx);
});
after(() => fx.t.close());

test('a family in one basket: two lines, the server total, cash and change, one order paid in cash', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  assert.equal(page.statusCode, 200);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(720) };
  const added = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '2', [`q-T-${reduced}`]: '1' });
  assert.equal(added.statusCode, 200, added.body.slice(added.body.indexOf('<main'), added.body.indexOf('<main') + 800));
  assert.deepEqual(linesOf(added.body).sort(), [`T:${fx.A.ticketId}:${fx.at(720)}:2`, `T:${reduced}:${fx.at(720)}:1`].sort());
  assert.match(added.body, /data-cents="3700"/, '2 × 14,00 + 9,00');
  assert.match(added.body, /id="given"[^>]*autofocus/, 'the cash given is next');
  // Enter in the cash field recomputes: the change is shown and the sell button is next.
  const given = await add(b, { ...form, lines: linesOf(added.body) }, {}, { given: '50' });
  assert.match(given.body, /<output id="change"[^>]*>€13\.00/);
  assert.match(given.body, /id="sell"[^>]*autofocus/);
  const before = await count(fx, 'orders');
  const sold = await b.post('/console/sale', { key: form.key, date: fx.day, time: form.time, line: linesOf(added.body), op: 'sell', given: '50', payment: 'cash', delivery: 'print', name: 'Familie Berger' });
  assert.equal(sold.statusCode, 303, sold.body.slice(sold.body.indexOf('<main'), sold.body.indexOf('<main') + 800));
  assert.match(String(sold.headers.location), /change=1300/);
  const id = orderIdOf(sold.headers.location);
  assert.equal(await count(fx, 'orders'), before + 1);
  const db = fx.t.database.db;
  const [o] = (await db.execute<{ total_price_cents: number; payment_method: string; status: string; reference: string }>(sql`select total_price_cents, payment_method, status, reference from orders where id = ${id}`)).rows;
  assert.deepEqual(o, { total_price_cents: 3700, payment_method: 'cash', status: 'finalized', reference: 'Familie Berger' });
  const items = (await db.execute<{ ticket_id: number; quantity: number }>(sql`select ticket_id, quantity from order_items where order_id = ${id} order by ticket_id`)).rows;
  assert.deepEqual(items.map((i) => [i.ticket_id, i.quantity]), [[fx.A.ticketId, 2], [reduced, 1]]);
  const pays = (await db.execute<{ provider: string; method: string; amount_cents: number; state: string }>(sql`select provider, method, amount_cents, state from payments where order_id = ${id}`)).rows;
  assert.deepEqual(pays, [{ provider: 'desk', method: 'cash', amount_cents: 3700, state: 'confirmed' }]);
  const done = await b.get(String(sold.headers.location));
  assert.match(done.body, /Change: €13\.00/);
});

test('a split payment: card for a part, the rest in cash, two payments through the desk provider', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(750) };
  const added = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '3' });
  const sold = await b.post('/console/sale', { key: form.key, date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'cash', part_method: 'card', part_amount: '20', given: '30', delivery: 'print' });
  assert.equal(sold.statusCode, 303, sold.body.slice(sold.body.indexOf('<main'), sold.body.indexOf('<main') + 800));
  const id = orderIdOf(sold.headers.location);
  assert.match(String(sold.headers.location), /change=800/, '42 − 20 by card = 22 cash; 30 given');
  const pays = (await fx.t.database.db.execute<{ method: string; amount_cents: number }>(sql`select method, amount_cents from payments where order_id = ${id} order by method`)).rows;
  assert.deepEqual(pays, [{ method: 'card', amount_cents: 2000 }, { method: 'cash', amount_cents: 2200 }]);
  const [o] = (await fx.t.database.db.execute<{ payment_method: string }>(sql`select payment_method from orders where id = ${id}`)).rows;
  assert.equal(o!.payment_method, 'split');
});

test('errors show on the form with what was typed kept, in the user language; nothing is sold', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  await b.post('/console/locale', { locale: 'de', back: '/console/sale' });
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(780) };
  const added = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '2' });
  const before = await count(fx, 'orders');
  const short = await b.post('/console/sale', { key: form.key, date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'cash', given: '20', name: 'Zu Wenig', delivery: 'print' });
  assert.equal(short.statusCode, 422);
  assert.match(short.body, /Gegeben sind 20,00\s€, bar zu zahlen sind 28,00\s€/);
  assert.match(short.body, /id="given"[^>]*value="20"[^>]*aria-invalid="true"/);
  assert.match(short.body, /id="name"[^>]*value="Zu Wenig"/);
  assert.deepEqual(linesOf(short.body), linesOf(added.body), 'the basket is kept');
  // A domain refusal (far above capacity) is the code's German message, on the form, quantities kept.
  const big = await add(b, { ...form, lines: linesOf(added.body) }, { [`q-T-${fx.A.ticketId}`]: '55' });
  assert.equal(big.statusCode, 422);
  assert.match(big.body, /So viele Plätze hat dieses Zeitfenster nicht|ausverkauft/);
  assert.match(big.body, new RegExp(`id="q-T-${fx.A.ticketId}"[^>]*value="55"`));
  assert.deepEqual(linesOf(big.body), linesOf(added.body));
  // Mail without an address: the customer's help text and the error agree.
  const mail = await b.post('/console/sale', { key: form.key, date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'card', delivery: 'mail', surname: 'Ohnepost' });
  assert.equal(mail.statusCode, 422);
  assert.match(mail.body, /Zum Versand per E-Mail wird die E-Mail-Adresse gebraucht/);
  assert.doesNotMatch(mail.body, /can&#39;t be blank|can't be blank/);
  assert.equal(await count(fx, 'orders'), before);
});

test('a tour start in a language and an event date join the basket; the total follows each line', async () => {
  const db = fx.t.database.db;
  const ev = await f.event(db, { museumId: fx.A.id, title: { de: 'Kuratorenführung', en: 'Curator talk' }, priceCents: 800 });
  const date = await f.eventDate(db, { eventId: ev.id, startAt: new Date(fx.at(900)), seatsMax: 20 });
  const b = await signIn(fx.t, fx.staff.box_office);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const start = fx.at(11 * 60);
  assert.match(page.body, new RegExp(`<select id="ts-${fx.A.tourId}" name="ts-${fx.A.tourId}"[^>]*>.*<option value="${start}">11:00</option>`));
  assert.match(page.body, new RegExp(`<select id="tl-${fx.A.tourId}"[^>]*><option value="${fx.A.langId}">`));
  assert.ok(!page.body.includes(`q-U-${fx.B.tourId}`), 'another museum\u2019s tour is not offered');
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(720) };
  const one = await add(b, form, { [`q-T-${fx.A.ticketId}`]: '1' });
  assert.match(one.body, /data-cents="1400"/);
  const tour = await add(b, { ...form, lines: linesOf(one.body) }, { [`q-U-${fx.A.tourId}`]: '6' }, { [`ts-${fx.A.tourId}`]: start, [`tl-${fx.A.tourId}`]: String(fx.A.langId) });
  assert.equal(tour.statusCode, 200, tour.body.slice(tour.body.indexOf('role="alert"'), tour.body.indexOf('role="alert"') + 300));
  assert.ok(linesOf(tour.body).includes(`U:${fx.A.tourId}:${start}:6:${fx.A.langId}`));
  assert.match(tour.body, /data-cents="10400"/, '14,00 + 90,00 for the group');
  const event = await add(b, { ...form, lines: linesOf(tour.body) }, { [`q-E-${date.id}`]: '2' });
  assert.match(event.body, /data-cents="12000"/, '+ 2 × 8,00');
  assert.match(event.body, /2 × Kuratorenführung/);
  assert.match(event.body, /6 × Gruppenführung \(\w+\)/, "the tour line names its language");
  // A start the tour does not offer is refused on the form; the basket is kept.
  const bad = await add(b, { ...form, lines: linesOf(event.body) }, { [`q-U-${fx.A.tourId}`]: '3' }, { [`ts-${fx.A.tourId}`]: fx.at(3 * 60), [`tl-${fx.A.tourId}`]: String(fx.A.langId) });
  assert.equal(bad.statusCode, 422);
  assert.match(bad.body, /Bitte für „Gruppenführung“ einen freien Beginn wählen/);
  assert.deepEqual(linesOf(bad.body), linesOf(event.body));
  const sold = await b.post('/console/sale', { key: form.key, date: fx.day, line: linesOf(event.body), op: 'sell', payment: 'card', delivery: 'print' });
  assert.equal(sold.statusCode, 303, sold.body.slice(sold.body.indexOf('role="alert"'), sold.body.indexOf('role="alert"') + 300));
  const id = orderIdOf(sold.headers.location);
  const items = (await db.execute<{ tour_id: number | null; language_id: number | null; event_date_id: number | null; quantity: number; price_cents: number }>(
    sql`select tour_id, language_id, event_date_id, quantity, price_cents from order_items where order_id = ${id} order by id`)).rows;
  assert.deepEqual(items.map((i) => [i.tour_id, i.language_id, i.event_date_id, i.quantity, i.price_cents]), [
    [null, null, null, 1, 1400], [fx.A.tourId, fx.A.langId, null, 6, 9000], [null, null, date.id, 2, 1600],
  ]);
});
