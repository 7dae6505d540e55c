// Walk-ins: at 13:32 the desk still sells the 13:30 slot (until its entry window ends at 14:00),
// while the API, a partner and the availability they read refuse it as started; the 13:00 slot,
// over at 13:30, is refused at the desk too. One rule (schedules/saleWindow.ts) decides both.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
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
