// The day sheet's figures against known data (ticket slots and event dates): a finalized order is "sold", a reservation and a
// pending order are "held", a valid entry scan is "checked in", left = capacity − sold − held
// (as the availability API says); a closure turns the day into "closed" with its reason. Another
// museum's staff see none of it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { signIn } from './support.ts';

let fx: ConsoleFixture;
before(async () => (fx = await consoleFixture()));
after(() => fx.t.close());

/** The row of the 11:00 slot of museum A's pool: [capacity, sold, held, left, checked in]. */
function row(html: string, time: string): string[] {
  const m = new RegExp(`<th scope="row">${time}</th>((?:<td class="num">[^<]*</td>){5})`).exec(html);
  assert.ok(m, `no row for ${time}`);
  return [...m[1]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((x) => x[1]!);
}

test('sold, held, left and checked in per slot; a closure shows', async () => {
  const at = fx.at(660);
  const post = (url: string, payload: object, token = fx.user) => fx.t.request({ method: 'POST', url, token, payload });
  const sold = await post('/api/v4/orders', { finalize: true, items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 3, time: at } }] });
  assert.equal(sold.statusCode, 201, sold.body);
  assert.equal((await post('/api/v4/tickets/reservations', { ticket_id: fx.A.ticketId, quantity: 4, start_at: at })).statusCode, 201);
  assert.equal((await post('/api/v4/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 1, time: at } }] })).statusCode, 201);
  // One visitor of the sold order came in (a valid entry scan).
  const item = sold.json().order.items[0].id;
  await fx.t.database.db.execute(sql`insert into scans (account_id, barcode, museum_id, order_id, order_item_id, direction, people_count, result, gate_result, message, entries_used, entries_allowed, scanned_at, received_at)
    select account_id, 'x', ${fx.A.id}, ${sold.json().order.id}, ${item}, 'entry', 1, 'valid', 'open', 'ok', 1, 1, now(), now() from staff_console`);
  const capacity = await fx.t.request({ method: 'GET', url: `/api/v4/tickets/${fx.A.ticketId}/capacity?date=${fx.day}` });
  const b = await signIn(fx.t, fx.staff.viewer);
  const page = await b.get(`/console/day?date=${fx.day}`);
  assert.equal(page.statusCode, 200);
  assert.deepEqual(row(page.body, '11:00'), ['50', '3', '5', '42', '1']);
  assert.match(JSON.stringify(capacity.json()), /42/, 'left is what the availability API reports');
  assert.match(page.body, /Open 10:00–18:00/);

  const other = await signIn(fx.t, fx.staffB.viewer);
  const otherPage = await other.get(`/console/day?date=${fx.day}`);
  assert.deepEqual(row(otherPage.body, '11:00'), ['50', '0', '0', '50', '0'], 'museum B only');
  assert.equal((otherPage.body.match(/<caption>/g) ?? []).length, 1);

  // An event date at 14:00: 20 seats, 2 sold, 1 pending.
  const ev = await f.event(fx.t.database.db, { museumId: fx.A.id, title: { de: 'Kuratorenführung', en: 'Curator tour' } });
  const date = await f.eventDate(fx.t.database.db, { eventId: ev.id, startAt: new Date(fx.at(840)), seatsMax: 20 });
  assert.equal((await post('/api/v4/orders', { finalize: true, items: [{ type: 'Event', attributes: { id: date.id, quantity: 2 } }] })).statusCode, 201);
  assert.equal((await post('/api/v4/orders', { finalize: false, items: [{ type: 'Event', attributes: { id: date.id, quantity: 1 } }] })).statusCode, 201);
  const withEvent = await b.get(`/console/day?date=${fx.day}`);
  assert.match(withEvent.body, /<th scope="row">14:00 Curator tour<\/th><td class="num">20<\/td><td class="num">2<\/td><td class="num">1<\/td><td class="num">0<\/td>/);

  // The day's orders by visit, with who booked; a cancelled order stays listed, marked.
  const kept = await fx.order(fx.A, { name: 'Karla', surname: 'Kommtnoch' });
  const gone = await fx.order(fx.A, { name: 'Stefan', surname: 'Stornowitz' });
  assert.equal((await post(`/api/v4/orders/${gone.id}/cancellations`, {})).statusCode, 200);
  const orderRow = (html: string, id: number) => new RegExp(`<tr><th scope="row">[^<]+</th><td><a href="/console/orders/${id}">[^<]+</a></td><td>([^<]*)</td><td class="num">(\\d+)</td>\\s*<td>(.*?)</td></tr>`).exec(html)?.slice(1);
  const viaPartner = await post('/api/v4/orders', { finalize: true, customer: { name: 'Rita', surname: 'Reisegruppe', email: 'rita@example.org' }, items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 1, time: fx.at(720) } }] }, fx.reseller);
  assert.equal(viaPartner.statusCode, 201, viaPartner.body);
  const [partner] = (await fx.t.database.db.execute<{ name: string }>(sql`select a.name from accounts a join orders o on o.account_id = a.id where o.id = ${viaPartner.json().order.id}`)).rows;
  const listed = await b.get(`/console/day?date=${fx.day}`);
  assert.deepEqual(orderRow(listed.body, viaPartner.json().order.id), [`Rita Reisegruppe · via ${partner!.name}`, '1', 'booked']);
  assert.deepEqual(orderRow(listed.body, kept.id), ['Karla Kommtnoch', '2', 'booked']);
  assert.deepEqual(orderRow(listed.body, gone.id), ['Stefan Stornowitz', '0', '<strong class="closed">Cancelled</strong>']);
  assert.ok(!(await other.get(`/console/day?date=${fx.day}`)).body.includes('Kommtnoch'), 'museum B sees none of A\u2019s orders');

  const admin = await fx.t.token({ class: 'user' });
  const closed = await post('/api/v4/closures', { closure: { museum_id: fx.A.id, start_date: fx.day, reason: 'Sturmwarnung' } }, admin);
  assert.equal(closed.statusCode, 201, closed.body);
  const after = await b.get(`/console/day?date=${fx.day}`);
  assert.match(after.body, /Closed: Sturmwarnung/);
  assert.match(after.body, /all day: Sturmwarnung/);
  // The closure does not make the orders vanish: the live one is marked for a call.
  assert.equal(orderRow(after.body, kept.id)![2], '<strong class="closed">Closed: tell the visitor</strong>');
  assert.equal(orderRow(after.body, gone.id)![2], '<strong class="closed">Cancelled</strong>');
});
