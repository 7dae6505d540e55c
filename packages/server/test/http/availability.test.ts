// Availability endpoints: shapes (go~mus), per token class visibility, holds and overrides,
// DST days, calendars, tour start times, 404/422 paths.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { reservations } from '../../src/db/schema/index.ts';
import { claimCapacity } from '../../src/domain/capacity/claimCapacity.ts';
import { systemCtx } from '../../src/domain/context.ts';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ now: '2026-03-27T09:05:00Z' }); // Friday 10:05 CET
after(() => t.close());
const db = t.database.db;
const m = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, capacity: 20 });
const dayQ = await f.quota(db, { museumId: m.id, kind: 'day', capacity: 100 });
const slotT = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], firstEntry: 600, lastEntry: 690 });
const sibling = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], firstEntry: 600, lastEntry: 660, entryDuration: 60 });
const dayT = await f.ticket(db, { museumId: m.id, ticketType: 'normal', firstEntry: 540, lastEntry: 1020, quotaIds: [dayQ.id] });
const resellerOnly = await f.ticket(db, { museumId: m.id, salesChannels: ['reseller'], quotaIds: [q.id] });
const reseller = await t.token({ class: 'reseller' });
const user = await t.token({ class: 'user' });

const get = async (url: string, token?: string) => {
  const res = await t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};
const reserve = (ticketId: number, start_at: string, quantity: number, token = reseller) =>
  t.request({ method: 'POST', url: '/api/v4/reservations', payload: { ticket_id: ticketId, quantity, start_at }, token });

test('ticket capacity: slots in the museum zone, no-store, sold-out omitted, past slots omitted', async () => {
  const r = await get(`/tickets/${slotT.id}/capacity?date=2026-03-28`);
  assert.equal(r.status, 200);
  assert.equal(r.headers['cache-control'], 'no-store');
  assert.deepEqual(r.body, {
    data: { '2026-03-28T10:00:00+01:00': 20, '2026-03-28T10:30:00+01:00': 20, '2026-03-28T11:00:00+01:00': 20, '2026-03-28T11:30:00+01:00': 20 },
  });
  assert.equal((await reserve(slotT.id, '2026-03-28T10:30:00+01:00', 20)).statusCode, 201);
  assert.equal((await reserve(sibling.id, '2026-03-28T11:00:00+01:00', 5)).statusCode, 201);
  const after = await get(`/tickets/${slotT.id}/capacity?date=2026-03-28`);
  assert.deepEqual(after.body.data, { '2026-03-28T10:00:00+01:00': 20, '2026-03-28T11:00:00+01:00': 15, '2026-03-28T11:30:00+01:00': 20 });
  // Default date is today (museum zone): the 10:00 slot has started.
  assert.deepEqual(Object.keys((await get(`/tickets/${slotT.id}/capacity`)).body.data), [
    '2026-03-27T10:30:00+01:00', '2026-03-27T11:00:00+01:00', '2026-03-27T11:30:00+01:00',
  ]);
});

test('DST: slots on 2026-03-29 are at +02:00; a day ticket has one key at first entry', async () => {
  const r = await get(`/tickets/${slotT.id}/capacity?date=2026-03-29`);
  assert.deepEqual(Object.keys(r.body.data), ['2026-03-29T10:00:00+02:00', '2026-03-29T10:30:00+02:00', '2026-03-29T11:00:00+02:00', '2026-03-29T11:30:00+02:00']);
  assert.deepEqual((await get(`/tickets/${dayT.id}/capacity?date=2026-10-25`)).body.data, { '2026-10-25T09:00:00+01:00': 100 });
  assert.equal((await reserve(dayT.id, '2026-10-25T15:00:00+01:00', 30)).statusCode, 201);
  assert.deepEqual((await get(`/tickets/${dayT.id}/capacity?date=2026-10-25`)).body.data, { '2026-10-25T09:00:00+01:00': 70 });
});

test('visibility: a reseller-only ticket is 404 for anonymous callers, visible to resellers; bad input 422', async () => {
  assert.equal((await get(`/tickets/${resellerOnly.id}/capacity?date=2026-03-28`)).status, 404);
  assert.equal((await get(`/tickets/${resellerOnly.id}/capacity?date=2026-03-28`, reseller)).status, 200);
  assert.equal((await get(`/tickets/999999/capacity`)).status, 404);
  assert.equal((await get(`/tickets/${slotT.id}/capacity?date=2026-13-01`)).status, 422);
  assert.equal((await get(`/tickets/${slotT.id}/capacity?date=tomorrow`)).status, 422);
});

test('capacities: grouped by quota, zeros included, totals, own holds count as free', async () => {
  const mine = (await reserve(slotT.id, '2026-03-30T10:00:00+02:00', 20)).json().reservation.reservation_token;
  const url = `/tickets/capacities?ticket_ids[]=${slotT.id}&ticket_ids[]=${sibling.id}&ticket_ids[]=${resellerOnly.id}&date=2026-03-30`;
  const anon = await get(url);
  assert.equal(anon.status, 200);
  assert.deepEqual(anon.body.data, {
    [String(q.id)]: {
      tickets: [slotT.id, sibling.id],
      capacities: { '2026-03-30T10:00:00+02:00': 0, '2026-03-30T10:30:00+02:00': 20, '2026-03-30T11:00:00+02:00': 20, '2026-03-30T11:30:00+02:00': 20 },
      total_capacities: { '2026-03-30T10:00:00+02:00': 20, '2026-03-30T10:30:00+02:00': 20, '2026-03-30T11:00:00+02:00': 20, '2026-03-30T11:30:00+02:00': 20 },
    },
  });
  const own = await get(`${url}&reservations[]=${mine}`, reseller);
  assert.deepEqual(own.body.data[String(q.id)].tickets, [slotT.id, sibling.id, resellerOnly.id]);
  assert.equal(own.body.data[String(q.id)].capacities['2026-03-30T10:00:00+02:00'], 20);
  assert.equal((await get('/tickets/capacities?date=2026-03-30')).status, 422); // ticket_ids[] required
});

test('overrides and closures: capacity per date, closed day has no slots', async () => {
  await f.quotaOverride(db, { quotaId: q.id, date: '2026-04-01', capacity: 3 });
  await f.quotaOverride(db, { quotaId: q.id, date: '2026-04-02', capacity: null });
  assert.equal((await get(`/tickets/${slotT.id}/capacity?date=2026-04-01`)).body.data['2026-04-01T10:00:00+02:00'], 3);
  assert.deepEqual((await get(`/tickets/${slotT.id}/capacity?date=2026-04-02`)).body.data, {});
  const cal = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-03-31&end_at=2026-04-03`);
  assert.deepEqual(cal.body.data, { '2026-03-31': true, '2026-04-01': true, '2026-04-02': false, '2026-04-03': true });
});

test('calendar: past days false, default range to the end of the month, at most 366 days', async () => {
  const cal = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}`);
  assert.equal(cal.status, 200);
  assert.deepEqual(Object.keys(cal.body.data), ['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31']);
  const past = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-03-25&end_at=2026-03-27`);
  assert.deepEqual(past.body.data, { '2026-03-25': false, '2026-03-26': false, '2026-03-27': true });
  const year = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-04-01&end_at=2027-04-01`);
  assert.equal(year.status, 200);
  assert.equal(Object.keys(year.body.data).length, 366);
  const over = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-04-01&end_at=2027-04-02`);
  assert.equal(over.status, 422);
  assert.match(over.body.error, /366 days/);
  assert.equal((await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-04-01&end_at=2026-03-01`)).status, 422);
});

test('tours: start times with participants, concurrency, language and visibility', async () => {
  const de = await f.language(db);
  const en = await f.language(db);
  const tour = await f.tour(db, { museumId: m.id, languageIds: [de.id], duration: 60, minPersons: 2, maxPersons: 10, maxConcurrent: 1, windowStart: 600, windowEnd: 720, step: 60 });
  const hidden = await f.tour(db, { museumId: m.id, salesChannels: [] });
  const r = await get(`/tours/${tour.id}/start_times/2026-04-01?participants=4`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.data, [
    { start_time: '2026-04-01T10:00:00+02:00', participants: { min: 2, max: 10, bookable: 10 } },
    { start_time: '2026-04-01T11:00:00+02:00', participants: { min: 2, max: 10, bookable: 10 } },
    { start_time: '2026-04-01T12:00:00+02:00', participants: { min: 2, max: 10, bookable: 10 } },
  ]);
  assert.equal((await get(`/tours/${tour.id}/start_times/2026-04-01?language_id=${en.id}`)).body.code, 'LANGUAGE_NOT_AVAILABLE');
  assert.equal((await get(`/tours/${tour.id}/start_times/2026-04-01?participants=11`)).status, 422);
  assert.equal((await get(`/tours/${hidden.id}/start_times/2026-04-01`)).status, 404);
  assert.equal((await get(`/tours/${hidden.id}/start_times/2026-04-01`, user)).status, 200);
  const cal = await get(`/tours/${tour.id}/start_times?start_at=2026-03-26&end_at=2026-03-28`);
  assert.deepEqual(cal.body.data, { '2026-03-26': false, '2026-03-27': true, '2026-03-28': true });
  // One booked run at 11:00 (max_concurrent 1) blocks only that start; tours have no holds, so
  // the run is claimed directly through the capacity module.
  const [holder] = await db
    .insert(reservations)
    .values({ token: 'tour-run', accountId: (await db.query.accounts.findFirst())!.id, eventDateId: null, ticketId: slotT.id, quantity: 1, startAt: t.clock.now(), createdAt: t.clock.now(), expiresAt: t.clock.now(), lifetimeEndsAt: t.clock.now() })
    .returning();
  const ctx = systemCtx({ db, clock: t.clock, config: t.config });
  const run = { kind: 'tour' as const, tourId: tour.id, startAt: new Date('2026-04-01T09:00:00Z'), languageId: de.id, participants: 4 };
  await db.transaction((tx) => claimCapacity(tx, ctx, [{ claim: run, holder: { reservationId: holder!.id }, expiresAt: null }]));
  const booked = await get(`/tours/${tour.id}/start_times/2026-04-01?participants=4`);
  assert.deepEqual(booked.body.data.map((s: { participants: { bookable: number } }) => s.participants.bookable), [10, 0, 10]);
});
