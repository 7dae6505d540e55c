// Lists and read options: pagination limits, locale and multi-locale, `q` with SQL
// metacharacters, filters, ETag/304, opening hours, date ranges, and seats that reflect bookings.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { claimCapacity } from '../../src/domain/capacity/claimCapacity.ts';
import { reservations } from '../../src/db/schema/index.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { anonymous } from '../../src/domain/principal.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

// Monday 2026-03-23 09:00 Berlin; the spring-forward day (23 hours) is Sunday 2026-03-29.
const t = await testApp({ now: '2026-03-23T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
let user = '';
let museumId = 0;
const get = (url: string, token?: string, headers?: Record<string, string>) =>
  t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}), ...(headers ? { headers } : {}) });

before(async () => {
  user = await t.token({ class: 'user' });
  const m = await f.museum(db, { openingExceptions: { '2026-03-24': null, '2026-03-25': [720, 1500] } });
  museumId = m.id;
  for (let i = 0; i < 30; i++) await f.ticket(db, { museumId, title: { de: `Karte ${i}`, en: `Ticket ${i}` } });
});

describe('pagination', () => {
  test('per_page is capped per caller, defaults to 25, and pages are stable and disjoint', async () => {
    const anon = (await get('/tickets?per_page=100000')).json();
    assert.deepEqual(anon.meta, { total_count: 30, page: 1, per_page: 25 });
    assert.equal(anon.tickets.length, 25);
    const tokd = (await get('/tickets?per_page=100000', user)).json();
    assert.deepEqual(tokd.meta, { total_count: 30, page: 1, per_page: 100 });
    const p1 = (await get('/tickets?per_page=20')).json().tickets.map((x: { id: number }) => x.id);
    const p2 = (await get('/tickets?per_page=20&page=2')).json().tickets.map((x: { id: number }) => x.id);
    assert.equal(p1.length + p2.length, 30);
    assert.deepEqual([...p1, ...p2], [...p1, ...p2].sort((a: number, b: number) => a - b));
    assert.equal(new Set([...p1, ...p2]).size, 30);
    const beyond = (await get('/tickets?page=99')).json();
    assert.deepEqual(beyond.tickets, []);
    assert.equal(beyond.meta.total_count, 30);
  });

  test('invalid page or per_page is 422 in the spec shape', async () => {
    for (const q of ['per_page=0', 'per_page=abc', 'page=0', 'page=-1', 'per_page=1.5', 'page=99999999999']) {
      const res = await get(`/museums?${q}`);
      assert.equal(res.statusCode, 422, q);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.ok(Array.isArray(res.json().errors));
    }
  });

  test('unknown query parameters are ignored', async () => {
    const res = await get('/tickets?nonsense=1&by_whatever[]=2');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().meta.total_count, 30);
  });
});

describe('locale', () => {
  test('locale picks a translation with fallback to the default locale, then any', async () => {
    const onlyEn = await f.ticket(db, { museumId, title: { en: 'English only' }, subTitle: { de: 'Nur deutsch' } });
    const one = (await get(`/tickets/${onlyEn.id}?locale=de`)).json().ticket;
    assert.equal(one.title, 'English only');
    const en = (await get(`/tickets/${onlyEn.id}?locale=en`)).json().ticket;
    assert.equal(en.sub_title, 'Nur deutsch', 'falls back to the default locale de');
    assert.equal((await get('/tickets?locale=en&per_page=1')).json().tickets[0].title, 'Ticket 0');
    assert.equal((await get('/tickets?per_page=1')).json().tickets[0].title, 'Karte 0');
  });

  test('locale[] gives objects keyed by locale to token holders; anonymous get the first locale', async () => {
    const multi = (await get('/tickets?per_page=1&locale[]=en&locale[]=de', user)).json().tickets[0];
    assert.deepEqual(multi.title, { en: 'Ticket 0', de: 'Karte 0' });
    assert.equal(multi.sub_title, null);
    const anon = (await get('/tickets?per_page=1&locale[]=en&locale[]=de')).json().tickets[0];
    assert.equal(anon.title, 'Ticket 0');
    const single = (await get(`/museums/${museumId}?locale[]=en`, user)).json().museum;
    assert.deepEqual(single.title, { en: 'Test Museum' }, 'a one-element locale[] is still the object form');
    const museum = (await get(`/museums/${museumId}?locale[]=de&locale[]=en`, user)).json().museum;
    assert.deepEqual(museum.title, { de: 'Testmuseum', en: 'Test Museum' });
  });

  test('a locale the instance does not have is 422', async () => {
    for (const q of ['locale=fr', 'locale[]=de&locale[]=xx', 'locale=']) {
      const res = await get(`/tickets?${q}`, user);
      assert.equal(res.statusCode, 422, q);
    }
  });
});

describe('q search', () => {
  test('case-insensitive substring in any locale; LIKE metacharacters are literal; SQL stays data', async () => {
    const pct = await f.ticket(db, { museumId, title: { de: '50% Rabatt' } });
    const und = await f.ticket(db, { museumId, title: { de: 'a_b Karte' } });
    const quote = await f.ticket(db, { museumId, title: { en: "O'Brien's pass" } });
    const search = async (q: string) =>
      (await get(`/tickets?per_page=100&q=${encodeURIComponent(q)}`, user)).json().tickets.map((x: { id: number }) => x.id);
    assert.deepEqual(await search('%'), [pct.id]);
    assert.deepEqual(await search('_'), [und.id]);
    assert.deepEqual(await search("o'brien"), [quote.id]);
    assert.deepEqual(await search('TICKET 1'), (await search('ticket 1')));
    assert.equal((await search('ticket 1')).length, 11, 'Ticket 1 and Ticket 10..19 via the English title');
    assert.deepEqual(await search("'; drop table tickets; --"), []);
    assert.deepEqual(await search('\\'), []);
    const still = await db.execute(sql`select count(*)::int as n from tickets`);
    assert.ok(Number(still.rows[0]!.n) >= 33);
  });
});

describe('filters', () => {
  test('valid_at, by_ticket_type, by_ticket_ids (comma list too), by_museum_ids, by_bookable', async () => {
    const later = await f.ticket(db, { museumId, title: { de: 'Sommer' }, validFrom: '2026-06-01', validUntil: '2026-08-31' });
    const day = await f.ticket(db, { museumId, ticketType: 'normal', entryDuration: null, title: { de: 'Tageskarte' } });
    const has = async (q: string, id: number) =>
      (await get(`/tickets?per_page=100&${q}`, user)).json().tickets.some((x: { id: number }) => x.id === id);
    assert.equal(await has('', later.id), false, 'not valid today');
    assert.equal(await has('valid_at=2026-07-01', later.id), true);
    assert.equal((await get(`/tickets/${later.id}`, user)).json().ticket.bookable, false, 'shown, but not bookable today');
    assert.equal((await get('/tickets?valid_at=2026-02-30')).statusCode, 422);
    const types = (await get('/tickets?per_page=100&by_ticket_type=normal', user)).json().tickets.map((x: { id: number }) => x.id);
    assert.deepEqual(types, [day.id]);
    // go~mus asks for annual tickets separately; there are none here (docs/gomus-compatibility.md).
    const annual = await get('/tickets?by_ticket_type=annual');
    assert.equal(annual.statusCode, 200);
    assert.equal(annual.json().meta.total_count, 0);
    assert.equal((await get('/tickets?by_ticket_type=weekly')).statusCode, 422);
    const some = (await get(`/tickets?by_ticket_ids=${day.id},1`)).json().tickets.map((x: { id: number }) => x.id);
    assert.deepEqual(some, [1, day.id]);
    assert.equal((await get(`/tickets?by_museum_ids[]=${museumId + 1}`)).json().meta.total_count, 0);
    assert.equal((await get('/tickets?by_bookable=false')).json().meta.total_count, 0);
  });

  test('by_free_timing=true lists only tickets without time slots, false only time-slot tickets', async () => {
    const free = await f.ticket(db, { museumId, ticketType: 'normal', entryDuration: null, title: { de: 'Freie Zeit' } });
    const list = async (q: string) => (await get(`/tickets?per_page=100&${q}`, user)).json().tickets as { id: number; ticket_type: string }[];
    const all = await list('');
    const untimed = await list('by_free_timing=true');
    assert.ok(untimed.some((x) => x.id === free.id));
    assert.ok(untimed.length > 0 && untimed.every((x) => x.ticket_type === 'normal'));
    const timed = await list('by_free_timing=false');
    assert.ok(timed.length > 0 && timed.every((x) => x.ticket_type === 'time_slot'));
    assert.equal(untimed.length + timed.length, all.length);
    // What the deployed go~mus clients send: timed tickets, filtered by type too.
    assert.deepEqual(await list('by_free_timing=false&by_ticket_type=time_slot'), timed);
    assert.deepEqual(await list('by_free_timing=true&by_ticket_type=time_slot'), []);
    assert.equal((await get('/tickets?by_free_timing=maybe')).statusCode, 422);
  });
});

describe('caching', () => {
  test('ETag and Cache-Control; If-None-Match → 304; a change gives a new ETag', async () => {
    const first = await get('/tickets?per_page=5');
    const etag = first.headers.etag as string;
    assert.ok(etag);
    assert.match(String(first.headers['cache-control']), /private, max-age=\d+/);
    const again = await get('/tickets?per_page=5', undefined, { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const put = await t.request({ method: 'PUT', url: '/api/v4/tickets/1', token: user, payload: { title: { de: 'Neu', en: 'New' } } });
    assert.equal(put.statusCode, 200, put.body);
    const changed = await get('/tickets?per_page=5', undefined, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
    assert.equal(changed.json().tickets[0].title, 'Neu');
  });
});

describe('opening hours', () => {
  test('weekly hours, exceptions (closed or past midnight) and a 23-hour day', async () => {
    const oh = async (date: string) => (await get(`/museums/${museumId}/opening_hours?date=${date}`)).json().opening_hours;
    assert.deepEqual(await oh('2026-03-23'), { begin: '2026-03-23T10:00:00+01:00', end: '2026-03-23T18:00:00+01:00' });
    assert.equal(await oh('2026-03-24'), null);
    assert.deepEqual(await oh('2026-03-25'), { begin: '2026-03-25T12:00:00+01:00', end: '2026-03-26T01:00:00+01:00' });
    assert.deepEqual(await oh('2026-03-29'), { begin: '2026-03-29T10:00:00+02:00', end: '2026-03-29T18:00:00+02:00' });
    assert.deepEqual((await get(`/museums/${museumId}/opening_hours`)).json().opening_hours.begin, '2026-03-23T10:00:00+01:00');
    assert.equal((await get(`/museums/${museumId}/opening_hours?date=2026-13-01`)).statusCode, 422);
  });
});

describe('event dates', () => {
  test('date ranges: date, start_at..end_at (≤ 366 days), default today to end of month', async () => {
    const e = await f.event(db, { museumId });
    const at = (d: string) => new Date(`${d}T10:00:00+01:00`);
    const d1 = await f.eventDate(db, { eventId: e.id, startAt: at('2026-03-24') });
    const d2 = await f.eventDate(db, { eventId: e.id, startAt: new Date('2026-04-02T10:00:00+02:00') });
    const list = async (q: string) => (await get(`/events/${e.id}/dates?${q}`)).json().dates.map((x: { id: number }) => x.id);
    assert.deepEqual(await list(''), [d1.id]);
    assert.deepEqual(await list('date=2026-04-02'), [d2.id]);
    assert.deepEqual(await list('start_at=2026-03-20&end_at=2026-04-10'), [d1.id, d2.id]);
    assert.deepEqual(await list('start_at=2026-03-03&end_at=2027-03-03'), [d1.id, d2.id], '366 days is allowed');
    const over = await get(`/events/${e.id}/dates?start_at=2026-03-03&end_at=2027-03-04`);
    assert.equal(over.statusCode, 422, '367 days is not');
    assert.match(over.json().error, /at most 366 days/);
    const dates = await get(`/dates?by_event_ids[]=${e.id}&start_at=2026-03-03&end_at=2027-03-04`);
    assert.equal(dates.statusCode, 422, 'nor on /dates');
    assert.match(dates.json().error, /at most 366 days/);
    assert.equal((await get(`/dates?by_event_ids[]=${e.id}&start_at=2026-03-03&end_at=2027-03-03`)).statusCode, 200);
    assert.equal((await get(`/events/${e.id}/dates?start_at=2026-04-01&end_at=2026-03-01`)).statusCode, 422);
    assert.deepEqual((await get(`/dates?by_event_ids[]=${e.id}&start_at=2026-04-01&end_at=2026-04-30`)).json().dates.map((x: { id: number }) => x.id), [d2.id]);
    const one = (await get(`/events/${e.id}/dates/${d2.id}`)).json().date;
    assert.equal(one.start_time, '2026-04-02T10:00:00+02:00');
  });

  test('seats reflect live allocations from the capacity module', async () => {
    const e = await f.event(db, { museumId });
    const d = await f.eventDate(db, { eventId: e.id, startAt: new Date('2026-03-26T18:00:00+01:00'), seatsMax: 5 });
    const [acct] = (await db.execute<{ id: number }>(sql`select id from accounts limit 1`)).rows;
    await db.transaction(async (tx) => {
      const now = t.clock.now();
      const [r] = await tx
        .insert(reservations)
        .values({ token: 'seats-test', accountId: acct!.id, eventDateId: d.id, quantity: 5, startAt: d.startAt, createdAt: now, expiresAt: new Date(now.getTime() + 900_000), lifetimeEndsAt: new Date(now.getTime() + 3_600_000) })
        .returning();
      const ctx: Ctx = { db: t.database.db, principal: anonymous, clock: t.clock, config: t.config };
      await claimCapacity(tx, ctx, [{ claim: { kind: 'event_date', eventDateId: d.id, quantity: 5 }, holder: { reservationId: r!.id }, expiresAt: r!.expiresAt }]);
    });
    const full = (await get(`/events/${e.id}/dates/${d.id}`)).json().date;
    assert.deepEqual(full.seats, { min: 1, max: 5, booked: 5, available: 0, max_per_registration: null });
    assert.equal(full.bookable, false, 'sold out');
    t.clock.advanceMinutes(16);
    const free = (await get(`/events/${e.id}/dates/${d.id}`)).json().date;
    assert.equal(free.seats.booked, 0, 'an expired hold stops counting');
    assert.equal(free.bookable, true);
    t.clock.set('2026-03-23T08:00:00Z');
  });
});
