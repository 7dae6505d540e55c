// Schedules: bad input is a 422 naming the field and writes nothing (docs/api-contract.md §13 "Bad input");
// capacity overrides per date and per slot, with oversold_by and nothing cancelled.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ now: '2026-03-01T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
const staff = await t.token({ class: 'user' });
const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = staff) => {
  const res = await t.request({ method, url: `/api/v4${url}`, token, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
};
const m = await f.museum(db);
const other = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, capacity: 10 });
const dayQ = await f.quota(db, { museumId: m.id, kind: 'day', capacity: 100 });
const T = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
const foreign = await f.ticket(db, { museumId: other.id });
const counts = async () =>
  (await db.execute(sql`select (select count(*)::int from closures) c, (select count(*)::int from opening_seasons) s,
    (select count(*)::int from quota_overrides) o, (select count(*)::int from quota_slot_overrides) so,
    (select opening_hours::text || opening_exceptions::text from museums where id = ${m.id}) h`)).rows[0];

const bad: Array<[string, 'POST' | 'PUT', string, object, RegExp]> = [
  ['closure ends before it starts', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', end_date: '2026-06-09' }, /end_date must not be before start_date/],
  ['closure times inverted', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', start_time: '14:00', end_time: '12:00' }, /end_time must be after start_time/],
  ['closure time past 24:00', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', start_time: '24:30' }, /start_time must be a time from 00:00 to 24:00/],
  ['closure time not a time', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', end_time: '9am' }, /end_time must be a time/],
  ['closure date invalid', 'POST', '/closures', { museum_id: m.id, start_date: '2026-02-30' }, /start_date must be a date/],
  ['closure with an unknown ticket', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', ticket_ids: [999_999] }, /ticket_ids: 999999 not found/],
  ['closure naming a ticket of another museum', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', ticket_ids: [foreign.id] }, new RegExp(`ticket_ids: ${foreign.id} not found`)],
  ['closure with an unknown tour', 'POST', '/closures', { museum_id: m.id, start_date: '2026-06-10', tour_ids: [999_999] }, /tour_ids: 999999 not found/],
  ['season overlapping another', 'PUT', `/museums/${m.id}/schedule`, { seasons: [{ start_date: '2026-07-01', end_date: '2026-07-31', hours: {} }, { start_date: '2026-07-15', end_date: '2026-08-15', hours: {} }] }, /seasons\[1\] overlaps seasons\[0\]/],
  ['season ending before it starts', 'PUT', `/museums/${m.id}/schedule`, { seasons: [{ start_date: '2026-07-31', end_date: '2026-07-01', hours: {} }] }, /seasons\[0\].end_date must not be before start_date/],
  ['weekly hours inverted', 'PUT', `/museums/${m.id}/schedule`, { weekly: { monday: '18:00-10:00' } }, /weekly.monday/],
  ['weekly hours past 24:00', 'PUT', `/museums/${m.id}/schedule`, { weekly: { tuesday: '10:00-25:00' } }, /weekly.tuesday/],
  ['weekly hours for no weekday', 'PUT', `/museums/${m.id}/schedule`, { weekly: { funday: '10:00-18:00' } }, /weekly.funday is not a weekday/],
  ['exception on no date', 'PUT', `/museums/${m.id}/schedule`, { exceptions: { '2026-13-01': 'closed' } }, /exceptions.2026-13-01 is not a date/],
  ['capacity below zero', 'PUT', `/quotas/${q.id}/capacities`, { capacities: [{ date: '2026-06-02', capacity: -1 }] }, /capacities\[0\].capacity must be a whole number from 0/],
  ['slot time out of range', 'PUT', `/quotas/${q.id}/capacities`, { capacities: [{ date: '2026-06-02', time: '24:00', capacity: 5 }] }, /capacities\[0\].time must be a time/],
  ['slot time on a day quota', 'PUT', `/quotas/${dayQ.id}/capacities`, { capacities: [{ date: '2026-06-02', time: '10:00', capacity: 5 }] }, /counts per day/],
  ['the same slot twice', 'PUT', `/quotas/${q.id}/capacities`, { capacities: [{ date: '2026-06-02', time: '10:00', capacity: 5 }, { date: '2026-06-02', time: '10:00', capacity: 6 }] }, /repeats/],
];

for (const [name, method, url, body, message] of bad) {
  test(`422 and nothing written: ${name}`, async () => {
    const before = await counts();
    const r = await call(method, url, body);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.code, 'VALIDATION_FAILED');
    assert.ok((r.body.errors ?? []).some((e: string) => message.test(e)), JSON.stringify(r.body));
    assert.deepEqual(await counts(), before);
  });
}

test('a duplicate closure of the same scope is refused; another scope is fine', async () => {
  assert.equal((await call('POST', '/closures', { museum_id: m.id, start_date: '2026-06-20' })).status, 201);
  const dup = await call('POST', '/closures', { museum_id: m.id, start_date: '2026-06-20', start_time: '10:00', end_time: '12:00' });
  assert.equal(dup.status, 422);
  assert.match(dup.body.errors[0], /overlaps closure \d+ with the same scope/);
  assert.equal((await call('POST', '/closures', { museum_id: m.id, start_date: '2026-06-20', ticket_ids: [T.id] })).status, 201);
  assert.equal((await call('POST', '/closures', { museum_id: 999_999, start_date: '2026-06-20' })).status, 404);
});

test('capacity per date and per slot: oversold_by when lowered below what is sold, nothing cancelled', async () => {
  const D = '2026-06-02';
  const order = await t.request({ method: 'POST', url: '/api/v4/orders', token: staff, payload: { items: [{ type: 'Ticket', attributes: { id: T.id, quantity: 6, time: `${D}T10:00:00+02:00` } }], finalize: true } });
  assert.equal(order.statusCode, 201, order.body);
  const slot = await call('PUT', `/quotas/${q.id}/capacities`, { capacities: [{ date: D, time: '10:00', capacity: 4 }, { date: D, time: '10:30', capacity: 2 }] });
  assert.equal(slot.status, 200, JSON.stringify(slot.body));
  assert.deepEqual(slot.body.capacities, [
    { date: D, time: '10:00', capacity: 4, sold: 6, oversold_by: 2 },
    { date: D, time: '10:30', capacity: 2, sold: 0, oversold_by: 0 },
  ]);
  const day = await call('PUT', `/quotas/${q.id}/capacities`, { capacities: [{ date: D, capacity: 3 }] });
  assert.deepEqual(day.body.capacities, [{ date: D, time: null, capacity: 3, sold: 0, oversold_by: 0 }]); // 10:00 has its own
  const cap = await t.request({ method: 'GET', url: `/api/v4/tickets/${T.id}/capacity?date=${D}` });
  const data = cap.json().data as Record<string, number>;
  assert.equal(data[`${D}T10:00:00+02:00`], undefined); // oversold: nothing left, omitted
  assert.equal(data[`${D}T10:30:00+02:00`], 2);
  assert.equal(data[`${D}T11:00:00+02:00`], 3);
  const caps = await t.request({ method: 'GET', url: `/api/v4/tickets/capacities?ticket_ids[]=${T.id}&date=${D}` });
  assert.equal(caps.json().data[String(q.id)].total_capacities[`${D}T10:30:00+02:00`], 2);
  const more = await t.request({ method: 'POST', url: '/api/v4/orders', token: staff, payload: { finalize: false, items: [{ type: 'Ticket', attributes: { id: T.id, quantity: 3, time: `${D}T10:30:00+02:00` } }] } });
  assert.equal(more.json().code, 'QUANTITY_ABOVE_CAPACITY');
  assert.equal((await call('GET' as 'POST', `/orders/${order.json().order.id}`)).body.order.status, 'finalized');
});
