// Walk-ins: at 13:32 the desk still sells the 13:30 slot (until its entry window ends at 14:00),
// while the API, a partner and the availability they read refuse it as started; the 13:00 slot,
// over at 13:30, is refused at the desk too. One rule (schedules/saleWindow.ts) decides both.
// An hourly ticket's running slot (13:00–14:00) sells until 14:00 and admits at once; a ticket
// sold for later is refused at the gate with the time its entry opens (entry/rules.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn } from '../console/support.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { add, keyOf, linesOf, orderIdOf } from './support.ts';

let fx: ConsoleFixture;
before(async () => {
  fx = await consoleFixture();
  fx.t.clock.now = () => zonedInstant(fx.day, 13 * 60 + 32, 'Europe/Berlin');
});
after(() => fx.t.close());

test('the running slot: offered and sold at the desk, refused by the API', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const running = fx.at(13 * 60 + 30);
  assert.match(page.body, new RegExp(`<option value="${running}" selected>13:30`), 'the running slot is offered first');
  assert.ok(!page.body.includes(`<option value="${fx.at(13 * 60)}"`), 'the 13:00 slot is over');
  const added = await add(b, { key: keyOf(page.body), date: fx.day, time: running }, { [`q-T-${fx.A.ticketId}`]: '2' });
  assert.equal(added.statusCode, 200, added.body.slice(added.body.indexOf('role="alert"'), added.body.indexOf('role="alert"') + 300));
  const sold = await b.post('/console/sale', { key: keyOf(page.body), date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'card', delivery: 'print' });
  assert.equal(sold.statusCode, 303);
  assert.ok(orderIdOf(sold.headers.location) > 0);

  // The API (another channel) sees the slot as started: not offered, and an order is refused.
  const cap = await fx.t.request({ method: 'GET', url: `/api/v4/tickets/${fx.A.ticketId}/capacity?date=${fx.day}`, token: fx.user });
  assert.ok(!(running in cap.json().data), 'not offered online');
  const api = await fx.t.request({ method: 'POST', url: '/api/v4/orders', token: fx.user, payload: { items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 1, time: running } }], finalize: true } });
  assert.equal(api.statusCode, 422);
  assert.equal(api.json().code, 'DATE_IN_PAST');

  // Control: the slot that ended at 13:30 is refused at the desk as well.
  const late = await add(b, { key: keyOf(page.body), date: fx.day, time: running, lines: [`T:${fx.A.ticketId}:${fx.at(13 * 60)}:1`] }, {});
  assert.equal(late.statusCode, 422);
  assert.match(late.body, /This date is over/);
});

test('an hourly slot (13:00–14:00) sells until 14:00 and admits; a later ticket says when entry opens', async () => {
  const db = fx.t.database.db;
  const q = await f.quota(db, { museumId: fx.A.id, capacity: 20 });
  const hourly = (await f.ticket(db, { museumId: fx.A.id, quotaIds: [q.id], entryDuration: 60, title: { de: 'Stundenkarte', en: 'Walk-in hour' } })).id;
  const gate = await fx.t.token({ class: 'entry', name: 'Gate', museumIds: [fx.A.id] });
  const b = await signIn(fx.t, fx.staff.box_office);
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const one = fx.at(13 * 60);
  const three = fx.at(15 * 60);
  assert.match(page.body, new RegExp(`<option value="${one}" selected>13:00 \\(20 left\\)`), "the running hour is offered first, with what is left of it");
  const codesOf = async (location: unknown) => (await db.execute<{ code: string }>(sql`select b.code from barcodes b join order_items i on i.id = b.order_item_id where i.order_id = ${orderIdOf(location)} order by i.start_at, b.id`)).rows.map((r) => r.code);
  const sell = async (time: string) => {
    const form = await b.get(`/console/sale?date=${fx.day}`);
    const added = await add(b, { key: keyOf(form.body), date: fx.day, time }, { [`q-T-${hourly}`]: '1' });
    assert.equal(added.statusCode, 200, added.body.slice(added.body.indexOf('role="alert"'), added.body.indexOf('role="alert"') + 300));
    const sold = await b.post('/console/sale', { key: keyOf(form.body), date: fx.day, line: linesOf(added.body), op: 'sell', payment: 'card', delivery: 'print' });
    assert.equal(sold.statusCode, 303);
    return codesOf(sold.headers.location);
  };
  const [now] = await sell(one);
  const [later] = await sell(three);
  const scan = async (code: string) => (await fx.t.request({ method: 'POST', url: '/api/v4/scans', token: gate, payload: { scan: { barcode: code, direction: 'entry' } } })).json().scan;
  assert.equal((await scan(now!)).result, 'valid', 'the walk-in goes straight in');
  const early = await scan(later!);
  assert.equal(early.result, 'not_yet_valid');
  assert.equal(early.message, 'Noch nicht gültig – Einlass ab 14:45', 'the gate says when entry opens');
  assert.match(early.entry_opens_at, /T14:45:00\+0[12]:00$/);

  // At 14:00 the hour is over: the desk refuses it too.
  fx.t.clock.now = () => zonedInstant(fx.day, 14 * 60, 'Europe/Berlin');
  try {
    const form = await b.get(`/console/sale?date=${fx.day}`);
    assert.ok(!form.body.includes(`<option value="${one}"`), 'not offered after its end');
    const over = await add(b, { key: keyOf(form.body), date: fx.day, time: fx.at(14 * 60), lines: [`T:${hourly}:${one}:1`] }, {});
    assert.equal(over.statusCode, 422);
    assert.match(over.body, /This date is over|Dieser Termin ist vorbei/);
  } finally {
    fx.t.clock.now = () => zonedInstant(fx.day, 13 * 60 + 32, 'Europe/Berlin');
  }
});
