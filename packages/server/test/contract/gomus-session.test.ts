// A go~mus shop client's session, written from the go~mus v4 documentation and the calls real
// shop clients make (docs/gomus-compatibility.md): catalogue with bracket arrays and go~mus
// filters, capacity, reservation under the /tickets/reservations path, an order from it, a
// finalize sent as a body-less POST with `Content-Type: application/json`, the order read back
// and its documents. Each call is sent exactly as such a client sends it; each answer is checked
// the way such a client reads it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;

const day = f.localDate(6);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
/** Places left at a slot: availability keys are museum-local ISO times (`…T10:00:00+01:00`). */
const leftAt = (data: Record<string, number>, iso: string) => Object.entries(data).find(([k]) => Date.parse(k) === Date.parse(iso))?.[1];

test('a go~mus shop client session runs against Atrium unchanged', async () => {
  const museum = await f.museum(db);
  const quota = await f.quota(db, { museumId: museum.id, capacity: 20 });
  const ticket = await f.ticket(db, { museumId: museum.id, quotaIds: [quota.id], priceCents: 1400 });
  const token = await t.token({ class: 'reseller', museumIds: [museum.id] });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.request({ method, url: `/api/v4${url}`, token, headers, ...(payload ? { payload } : {}) });

  // Catalogue: version and locales, then every ticket in one page as shops ask (per_page=1000 is
  // capped, not refused), with go~mus filters.
  assert.equal((await call('GET', '/version')).json().version.api, '4.4');
  assert.ok(Array.isArray((await call('GET', '/locales')).json().locales));
  const list = await call('GET', `/tickets?per_page=1000&by_museum_ids[]=${museum.id}&by_ticket_type=time_slot&by_free_timing=false&locale=de`);
  assert.equal(list.statusCode, 200, list.body);
  assert.deepEqual(list.json().tickets.map((x: { id: number }) => x.id), [ticket.id]);
  // Annual tickets are asked for separately; there are none, which is an empty list, not an error.
  const annual = await call('GET', '/tickets?by_ticket_type=annual');
  assert.equal(annual.statusCode, 200, annual.body);
  assert.deepEqual(annual.json().tickets, []);
  assert.equal(annual.json().meta.total_count, 0);
  assert.equal((await call('GET', `/tickets/${ticket.id}`)).json().ticket.id, ticket.id);
  // An id that cannot exist is an unknown record, as go~mus answers it.
  for (const bad of ['abc', '0', '99999999999']) assert.equal((await call('GET', `/tickets/${bad}`)).statusCode, 404, bad);

  // Capacity, single and grouped (bracket arrays), for the visit day.
  const capacity = await call('GET', `/tickets/${ticket.id}/capacity?date=${day}`);
  assert.equal(capacity.statusCode, 200, capacity.body);
  assert.equal(leftAt(capacity.json().data, at(600)), 20);
  const grouped = await call('GET', `/tickets/capacities?ticket_ids[]=${ticket.id}&date=${day}`);
  assert.equal(grouped.statusCode, 200, grouped.body);
  assert.ok(grouped.json().data[String(quota.id)], 'keyed by quota id');

  // Reservation under the go~mus path, then the order that consumes it.
  const hold = await call('POST', '/tickets/reservations', { reservation: { ticket_id: ticket.id, quantity: 2, start_at: at(600) } });
  assert.equal(hold.statusCode, 201, hold.body);
  const reservationToken = hold.json().reservation.reservation_token;
  assert.ok(reservationToken);
  const order = await call('POST', '/orders', {
    finalize: false, items: [{ type: 'Ticket', attributes: { id: ticket.id, quantity: 2, time: at(600), reservations: [reservationToken] } }],
  });
  assert.equal(order.statusCode, 201, order.body);
  const id = order.json().order.id as number;

  // go~mus clients finalize with an empty body and a JSON content type.
  const fin = await t.request({ method: 'POST', url: `/api/v4/orders/${id}/finalize`, token, headers: { 'content-type': 'application/json' }, payload: '' });
  assert.equal(fin.statusCode, 200, fin.body);
  const read = await call('GET', `/orders/${id}`);
  assert.equal(read.statusCode, 200);
  assert.equal(read.json().order.items.length >= 1, true);
  assert.equal(leftAt((await call('GET', `/tickets/${ticket.id}/capacity?date=${day}`)).json().data, at(600)), 18);

  // A body-less JSON POST to a route that needs a body is still refused, as a validation error.
  const empty = await t.request({ method: 'POST', url: '/api/v4/orders', token, headers: { 'content-type': 'application/json' }, payload: '' });
  assert.equal(empty.statusCode, 422, empty.body);
});
