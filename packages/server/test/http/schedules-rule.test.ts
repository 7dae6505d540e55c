// The sellability rule through HTTP (docs/api-contract.md §13): for each case of a table (weekly hours, a
// season, date exceptions, whole-day and part-day closures, per-ticket, per-quota and per-tour
// closures, DST change days, slots at the edge of closing time) every availability endpoint and
// every booking path must give the same answer: listed and bookable, or absent and 422 CLOSED.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isoInZone, zonedInstant } from '../../src/domain/time.ts';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';

const Z = 'Europe/Berlin';
const t = await testApp({ now: '2026-03-01T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
const staff = await t.token({ class: 'user' });
const reseller = await t.token({ class: 'reseller' });
const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) => {
  const res = await t.request({ method, url: `/api/v4${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
};

const m = await f.museum(db);
const q1 = await f.quota(db, { museumId: m.id, capacity: 50 });
const q2 = await f.quota(db, { museumId: m.id, capacity: 50 });
// The ticket grids are wider than any opening hours: the hours decide which slots exist.
const T1 = await f.ticket(db, { museumId: m.id, quotaIds: [q1.id], firstEntry: 480, lastEntry: 1200 });
const T2 = await f.ticket(db, { museumId: m.id, quotaIds: [q2.id], firstEntry: 480, lastEntry: 1200 });
const D = await f.ticket(db, { museumId: m.id, ticketType: 'normal', firstEntry: 600, lastEntry: 1020, quotaIds: [q1.id] });
const de = await f.language(db);
const R = await f.tour(db, { museumId: m.id, languageIds: [de.id], duration: 60, minPersons: 1, maxPersons: 20, maxConcurrent: 5, windowStart: 480, windowEnd: 1200, step: 30 });
const E = await f.event(db, { museumId: m.id });

// Hours: Monday closed, otherwise 10:00-18:00; July a longer season (Mondays still closed);
// 10 June closed, 11 June 12:00-16:00.
const week = { monday: 'closed', tuesday: '10:00-18:00', wednesday: '10:00-18:00', thursday: '10:00-18:00', friday: '10:00-18:00', saturday: '10:00-18:00', sunday: '10:00-18:00' };
const summer = { ...week, tuesday: '09:00-20:00', wednesday: '09:00-20:00', thursday: '09:00-20:00', friday: '09:00-20:00', saturday: '09:00-20:00', sunday: '09:00-20:00' };
const put = await call('PUT', `/museums/${m.id}/schedule`, staff, {
  weekly: week,
  seasons: [{ start_date: '2026-07-01', end_date: '2026-07-31', hours: summer }],
  exceptions: { '2026-06-10': 'closed', '2026-06-11': '12:00-16:00' },
});
assert.equal(put.status, 200, JSON.stringify(put.body));
const close = async (body: object) => {
  const r = await call('POST', '/closures', staff, { museum_id: m.id, ...body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
};
await close({ start_date: '2026-06-16', reason: 'Staff assembly' }); // Tuesday, whole museum
await close({ start_date: '2026-06-17', start_time: '12:00', end_time: '14:00', reason: 'Fire drill' }); // Wednesday, part of the day
await close({ start_date: '2026-06-18', ticket_ids: [T2.id], reason: 'Wing closed' });
await close({ start_date: '2026-06-19', tour_ids: [R.id], reason: 'Guides on training' });
await close({ start_date: '2026-06-23', quota_ids: [q2.id], reason: 'Quota closed' });

type Product = 'T1' | 'T2' | 'D' | 'R' | 'E';
const cases: Array<[string, Product, string, string, boolean]> = [
  ['weekly hours: opening slot', 'T1', '2026-06-02', '10:00', true],
  ['weekly hours: before opening', 'T1', '2026-06-02', '09:30', false],
  ['weekly hours: last slot before closing', 'T1', '2026-06-02', '17:30', true],
  ['weekly hours: slot at closing time', 'T1', '2026-06-02', '18:00', false],
  ['weekly closing day (Monday)', 'T1', '2026-06-01', '10:00', false],
  ['weekly closing day, day ticket', 'D', '2026-06-01', '10:00', false],
  ['weekly closing day, tour', 'R', '2026-06-01', '10:00', false],
  ['weekly closing day, event date', 'E', '2026-06-01', '15:00', false],
  ['open day, day ticket', 'D', '2026-06-02', '10:00', true],
  ['tour run ends at closing', 'R', '2026-06-02', '17:00', true],
  ['tour run would end after closing', 'R', '2026-06-02', '17:30', false],
  ['season: longer hours, early', 'T1', '2026-07-07', '09:00', true],
  ['season: longer hours, late', 'T1', '2026-07-07', '19:30', true],
  ['season: closing time', 'T1', '2026-07-07', '20:00', false],
  ['season: tour late', 'R', '2026-07-07', '19:00', true],
  ['season: Monday stays closed', 'T1', '2026-07-06', '10:00', false],
  ['exception: closed date', 'T1', '2026-06-10', '12:00', false],
  ['exception: closed date, event', 'E', '2026-06-10', '19:00', false],
  ['exception: other hours, open', 'T1', '2026-06-11', '12:00', true],
  ['exception: other hours, before', 'T1', '2026-06-11', '11:30', false],
  ['exception: other hours, last slot', 'T1', '2026-06-11', '15:30', true],
  ['exception: other hours, at closing', 'T1', '2026-06-11', '16:00', false],
  ['whole-day closure: slot', 'T1', '2026-06-16', '10:00', false],
  ['whole-day closure: day ticket', 'D', '2026-06-16', '10:00', false],
  ['whole-day closure: tour', 'R', '2026-06-16', '10:00', false],
  ['whole-day closure: event', 'E', '2026-06-16', '15:00', false],
  ['part-day closure: slot ending at its start', 'T1', '2026-06-17', '11:30', true],
  ['part-day closure: slot inside', 'T1', '2026-06-17', '12:00', false],
  ['part-day closure: last slot inside', 'T1', '2026-06-17', '13:30', false],
  ['part-day closure: slot at its end', 'T1', '2026-06-17', '14:00', true],
  ['part-day closure: day ticket stays', 'D', '2026-06-17', '10:00', true],
  ['part-day closure: tour overlapping', 'R', '2026-06-17', '11:30', false],
  ['part-day closure: tour before', 'R', '2026-06-17', '11:00', true],
  ['part-day closure: event overlapping', 'E', '2026-06-17', '13:00', false],
  ['part-day closure: event after', 'E', '2026-06-17', '14:00', true],
  ['per-ticket closure: that ticket', 'T2', '2026-06-18', '10:00', false],
  ['per-ticket closure: other ticket', 'T1', '2026-06-18', '10:00', true],
  ['per-ticket closure: tours go on', 'R', '2026-06-18', '10:00', true],
  ['per-tour closure: that tour', 'R', '2026-06-19', '10:00', false],
  ['per-tour closure: tickets go on', 'T1', '2026-06-19', '10:00', true],
  ['per-tour closure: events go on', 'E', '2026-06-19', '15:00', true],
  ['per-quota closure: ticket of the quota', 'T2', '2026-06-23', '10:00', false],
  ['per-quota closure: ticket of another quota', 'T1', '2026-06-23', '10:00', true],
  ['DST spring forward: opening at +02:00', 'T1', '2026-03-29', '10:00', true],
  ['DST spring forward: before opening', 'T1', '2026-03-29', '09:30', false],
  ['DST spring forward: tour', 'R', '2026-03-29', '17:00', true],
  ['DST fall back: last slot', 'T1', '2026-10-25', '17:30', true],
  ['DST fall back: closing time', 'T1', '2026-10-25', '18:00', false],
  ['DST fall back: tour at closing', 'R', '2026-10-25', '17:30', false],
];

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const iso = (date: string, time: string) => isoInZone(zonedInstant(date, minutes(time), Z), Z);
const ids: Record<Product, number> = { T1: T1.id, T2: T2.id, D: D.id, R: R.id, E: E.id };
// One event date per event case, created before the closures are asked about.
const eventDates = new Map<string, number>();
for (const [, p, date, time] of cases) {
  if (p === 'E') eventDates.set(`${date} ${time}`, (await f.eventDate(db, { eventId: E.id, startAt: zonedInstant(date, minutes(time), Z), duration: 60 })).id);
}

async function availability(p: Product, date: string, time: string): Promise<Record<string, boolean>> {
  const at = iso(date, time);
  if (p === 'R') {
    const starts = await call('GET', `/tours/${R.id}/start_times/${date}`);
    const cal = await call('GET', `/tours/${R.id}/start_times?start_at=${date}&end_at=${date}`);
    const listed = starts.body.data.some((s: { start_time: string; participants: { bookable: number } }) => s.start_time === at && s.participants.bookable > 0);
    return { start_times: listed, 'start_times calendar agrees': cal.body.data[date] === starts.body.data.length > 0 };
  }
  if (p === 'E') {
    const list = await call('GET', `/events/${E.id}/dates?date=${date}`);
    const d = list.body.dates.find((x: { id: number }) => x.id === eventDates.get(`${date} ${time}`));
    const one = await call('GET', `/events/${E.id}/dates/${d.id}`);
    return { 'dates bookable': d.bookable && !d.closed, 'date bookable': one.body.date.bookable && !one.body.date.closed };
  }
  const id = ids[p];
  const key = p === 'D' ? iso(date, '10:00') : at;
  const cap = await call('GET', `/tickets/${id}/capacity?date=${date}`);
  const caps = await call('GET', `/tickets/capacities?ticket_ids[]=${id}&date=${date}`);
  const cal = await call('GET', `/tickets/calendar?by_ticket_ids[]=${id}&start_at=${date}&end_at=${date}`);
  const group = Object.values(caps.body.data as Record<string, { capacities: Record<string, number> }>)[0];
  return {
    capacity: key in cap.body.data,
    capacities: (group?.capacities[key] ?? 0) > 0,
    'calendar agrees': cal.body.data[date] === Object.keys(cap.body.data).length > 0,
  };
}

async function bookings(p: Product, date: string, time: string): Promise<Record<string, number | string>> {
  const at = iso(date, time);
  const outcome = (r: { status: number; body: { code?: string } }) => (r.status === 201 ? 201 : `${r.status} ${r.body.code}`);
  if (p === 'R') {
    return { order: outcome(await call('POST', '/orders', reseller, { finalize: false, items: [{ type: 'Tour', attributes: { id: R.id, start_time: at, language_id: de.id, quantity: 5 } }] })) };
  }
  if (p === 'E') {
    const dateId = eventDates.get(`${date} ${time}`)!;
    return {
      reservation: outcome(await call('POST', '/reservations', reseller, { date_id: dateId, quantity: 1 })),
      order: outcome(await call('POST', '/orders', reseller, { finalize: false, items: [{ type: 'Event', attributes: { id: dateId, quantity: 1 } }] })),
    };
  }
  const item = { type: 'Ticket', attributes: { id: ids[p], quantity: 1, time: at } };
  return {
    reservation: outcome(await call('POST', '/reservations', reseller, { ticket_id: ids[p], quantity: 1, start_at: at })),
    order: outcome(await call('POST', '/orders', reseller, { finalize: false, items: [item] })),
    'box office order': outcome(await call('POST', '/orders', staff, { items: [item], finalize: true })),
  };
}

describe('every availability endpoint and every booking path agree', () => {
  for (const [name, p, date, time, open] of cases) {
    test(`${name}: ${p} ${date} ${time} ${open ? 'sellable' : 'closed'}`, async () => {
      const seen = await availability(p, date, time);
      for (const [endpoint, listed] of Object.entries(seen)) {
        if (endpoint.endsWith('agrees')) assert.equal(listed, true, endpoint);
        else assert.equal(listed, open, endpoint);
      }
      for (const [path, result] of Object.entries(await bookings(p, date, time))) {
        assert.equal(result, open ? 201 : '422 CLOSED', path);
      }
    });
  }
});

test('opening_hours: hours of the day, or closed with the reason', async () => {
  const oh = async (date: string) => (await call('GET', `/museums/${m.id}/opening_hours?date=${date}`)).body;
  assert.deepEqual(await oh('2026-06-02'), { opening_hours: { begin: '2026-06-02T10:00:00+02:00', end: '2026-06-02T18:00:00+02:00' } });
  assert.deepEqual(await oh('2026-07-07'), { opening_hours: { begin: '2026-07-07T09:00:00+02:00', end: '2026-07-07T20:00:00+02:00' } });
  assert.deepEqual(await oh('2026-06-11'), { opening_hours: { begin: '2026-06-11T12:00:00+02:00', end: '2026-06-11T16:00:00+02:00' } });
  assert.deepEqual(await oh('2026-10-25'), { opening_hours: { begin: '2026-10-25T10:00:00+01:00', end: '2026-10-25T18:00:00+01:00' } });
  assert.deepEqual(await oh('2026-06-01'), { opening_hours: null, closed: true, reason: 'closed on Mondays' });
  assert.deepEqual(await oh('2026-06-10'), { opening_hours: null, closed: true, reason: 'closed on 2026-06-10' });
  assert.deepEqual(await oh('2026-06-16'), { opening_hours: null, closed: true, reason: 'Staff assembly' });
  // A part-day closure leaves the day open.
  assert.equal((await oh('2026-06-17')).opening_hours.begin, '2026-06-17T10:00:00+02:00');
});

test('request acceptance on a closed tour start is 422 CLOSED and books nothing', async () => {
  const date = '2026-06-24';
  const at = iso(date, '11:00');
  const req = await call('POST', '/requests', reseller, {
    date, participants: 8, items: [{ tour_id: R.id, start_time: at, language_id: de.id }],
    customer: { name: 'Anna', surname: 'Müller', email: 'anna@example.org' },
  });
  assert.equal(req.status, 201, JSON.stringify(req.body));
  const c = await close({ start_date: date, tour_ids: [R.id] });
  const res = await call('POST', `/requests/${req.body.request.id}/accept`, staff);
  assert.equal(res.status, 422);
  assert.equal(res.body.code, 'CLOSED');
  assert.equal((await call('GET', `/requests/${req.body.request.id}`, staff)).body.request.status, 'pending');
  // Reopened: the same request can be accepted.
  assert.equal((await call('DELETE', `/closures/${c.closure.id}`, staff)).status, 204);
  assert.equal((await call('POST', `/requests/${req.body.request.id}/accept`, staff)).status, 200);
});
