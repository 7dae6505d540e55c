// GET /dates, /events/:id/dates, /dates/languages and /calendar read a page of event dates in ONE
// statement (db/repositories/catalog/datesPages.ts, docs/adr/0022-catalogue-read-path.md): the
// page is a slice of the sorted ids of an aggregate, the seats are the capacity module's sub-select
// and, without the master-data memo, each museum's schedule comes with the page as json. This
// file checks that statement against the ordinary paths, for the filters /dates takes (museums,
// events, ranges, q, paging, locale, languages, categories) and for dates that closures, seasons,
// exceptions and bookings change:
// - the app without caches (schedules read with the page) and the app with them (schedules from
//   the memo, through schedulesOf) answer byte for byte alike;
// - the ids, their order and the total are those of a plain Drizzle select of every matching id
//   (the same WHERE: datesWhere, datesCond, dateRange), sliced in JS;
// - every date of every page is what GET /events/:event_id/dates/:id answers for it: one record
//   through findEventDate, eventDateSeatsBooked (the capacity module's grouped count) and
//   closedEventDates (the rule with schedulesOf);
// - the schedule json (scheduleSql) is what three plain reads of the museum, its seasons and its
//   closures give.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import { capacityAllocations, categories, closures, eventDates, events, museums, openingSeasons } from '../../src/db/schema/index.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { resolveToken } from '../../src/domain/accounts/resolveToken.ts';
import { datesCond, datesWhere } from '../../src/db/repositories/catalog/dateStatements.ts';
import { dateLanguageFilter } from '../../src/db/repositories/catalog/filters.ts';
import { dateRange } from '../../src/domain/catalog/datesPage.ts';
import { datesFilterOf, type ListDatesInput } from '../../src/domain/catalog/listDates.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { anonymous, type Principal } from '../../src/domain/principal.ts';
import { scheduleOf } from '../../src/domain/schedules/schedule.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { cachedAndPlainApps } from '../helpers/cache-pair.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const Z = 'Europe/Berlin';
const database = await freshDatabase();
const db = database.db;
// Monday 8 June 2026, 08:00 in Berlin: the default range is 8–30 June.
const clock = new ManualClock('2026-06-08T06:00:00Z');
const { cached, plain, config } = await cachedAndPlainApps(database, clock);

const staff = (await createToken({ db, clock }, { class: 'user', name: 'staff', museumIds: [], rights: ['*'] })).token;
const A = await f.museum(db, { title: { de: 'Haus A', en: 'House A' } });
const B = await f.museum(db, { title: { de: 'Haus B', en: 'House B' } });
const reseller = (await createToken({ db, clock }, { class: 'reseller', name: 'partner' })).token;
const scopedUser = (await createToken({ db, clock }, { class: 'user', name: 'desk B', museumIds: [B.id], rights: ['catalog:read'] })).token;
const de = await f.language(db, { code: 'de', name: 'Deutsch' });
const en = await f.language(db, { code: 'en', name: 'English' });

async function write(method: 'POST' | 'PUT', url: string, payload: object) {
  const res = await cached.inject({ method, url: `/api/v4${url}`, headers: { authorization: `Bearer ${staff}` }, payload });
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.payload}`);
  return JSON.parse(res.payload);
}
const category = (await db.insert(categories).values({ kind: 'event', name: 'Konzert' }).returning())[0]!.id;

const E1 = await f.event(db, { museumId: A.id, title: { de: 'Führung Alte Meister', en: 'Old masters tour' }, categoryId: category });
const E2 = await f.event(db, { museumId: A.id, title: { de: 'Familienführung', en: 'Family tour' }, subTitle: { de: 'ab 6 Jahren' }, priceCents: 500, resellerPriceCents: 450 });
const E3 = await f.event(db, { museumId: B.id, title: { de: 'Konzert im Hof', en: 'Courtyard concert' } });
const E4 = await f.event(db, { museumId: A.id, title: { de: 'Partnerführung', en: 'Partner tour' }, salesChannels: ['reseller'] });
const E5 = await f.event(db, { museumId: A.id, title: { de: 'Abgesagt', en: 'Cancelled' }, active: false });
const E6 = await f.event(db, { museumId: B.id, title: { de: 'Nachtführung', en: 'Night tour' } });
const allEvents = [E1, E2, E3, E4, E5, E6];

// A date of every event on every day from 1 June to 10 July, at hours that put some inside a
// part-day closure and some before "now"; every seventh inactive, languages and durations mixed.
let n = 0;
const dateIds: number[] = [];
for (const [k, e] of allEvents.entries()) {
  for (let day = 1; day <= 40; day++) {
    n++;
    const date = f.localDate(day - 8, Z, new Date('2026-06-08T10:00:00Z'));
    const minutes = [420, 600, 840, 1140, 1260, 900][k]! + (day % 3) * 30;
    const row = await f.eventDate(db, {
      eventId: e.id,
      startAt: zonedInstant(date, minutes, Z),
      duration: day % 2 ? 60 : 120,
      seatsMax: 10 + (n % 5),
      active: n % 7 !== 0,
      languageId: n % 3 === 0 ? null : n % 3 === 1 ? de.id : en.id,
    });
    dateIds.push(row.id);
  }
}

// Seats: live bookings, a live hold, an expired hold and a released one (only the live count).
const at = (h: number) => new Date(clock.now().getTime() + h * 3_600_000);
const startOf = new Map((await db.select({ id: eventDates.id, startAt: eventDates.startAt }).from(eventDates)).map((r) => [r.id, r.startAt]));
for (const [i, id] of dateIds.entries()) {
  if (i % 4 === 3) continue;
  const slotStart = startOf.get(id)!;
  await db.insert(capacityAllocations).values([
    { resource: 'event_date', resourceId: id, slotStart, quantity: 1 + (i % 3), createdAt: clock.now() },
    ...(i % 2 ? [{ resource: 'event_date', resourceId: id, slotStart, quantity: 2, expiresAt: at(1), createdAt: clock.now() }] : []),
    ...(i % 5 === 0 ? [{ resource: 'event_date', resourceId: id, slotStart, quantity: 4, expiresAt: at(-1), createdAt: clock.now() }] : []),
    ...(i % 6 === 0 ? [{ resource: 'event_date', resourceId: id, slotStart, quantity: 5, releasedAt: at(-2), createdAt: clock.now() }] : []),
    // Sold out: every seat of every 11th date.
    ...(i % 11 === 0 ? [{ resource: 'event_date', resourceId: id, slotStart, quantity: 20, createdAt: clock.now() }] : []),
  ]);
}

// The rule's inputs: Mondays closed in A, a season (15–21 June: Tuesdays closed, short days), an
// exception (10 June closed in A), closures of the whole of A, of E2 for two afternoons, part of
// a day in B, and one of a ticket (events go on).
const open = '10:00-18:00';
await write('PUT', `/museums/${A.id}/schedule`, {
  weekly: { monday: 'closed', tuesday: open, wednesday: open, thursday: open, friday: open, saturday: open, sunday: open },
  seasons: [{ start_date: '2026-06-15', end_date: '2026-06-21', hours: { monday: open, tuesday: 'closed', wednesday: '12:00-14:00', thursday: open, friday: open, saturday: open, sunday: 'closed' } }],
  exceptions: { '2026-06-10': 'closed', '2026-06-29': '09:00-12:00' },
});
await write('POST', '/closures', { closure: { museum_id: A.id, start_date: '2026-06-12', reason: 'Inventur' } });
await write('POST', '/closures', { closure: { museum_id: A.id, start_date: '2026-06-23', end_date: '2026-06-24', start_time: '14:00', end_time: '16:00', event_ids: [E2.id] } });
await write('POST', '/closures', { closure: { museum_id: B.id, start_date: '2026-06-26', start_time: '10:00', end_time: '15:00', reason: 'Aufbau' } });
const T = await f.ticket(db, { museumId: B.id });
await write('POST', '/closures', { closure: { museum_id: B.id, start_date: '2026-06-27', ticket_ids: [T.id] } });

const callers: Array<[string, Record<string, string>, Principal]> = [
  ['public', {}, anonymous],
  ['reseller', { authorization: `Bearer ${reseller}` }, await principalOf(reseller)],
  ['user scoped to B', { authorization: `Bearer ${scopedUser}` }, await principalOf(scopedUser)],
];

async function principalOf(token: string) {
  return resolveToken(db, /^atr_([a-z0-9]+)_/.exec(token)![1]!, token, clock.now());
}

async function get(app: typeof plain, url: string, headers: Record<string, string>) {
  const res = await app.inject({ method: 'GET', url: `/api/v4${url}`, headers });
  return { status: res.statusCode, body: res.payload };
}

/** The ids (in order) of every date a list with these filters matches: a plain select, no paging. */
async function matching(principal: Principal, where: (ctx: Ctx) => Parameters<typeof datesCond>[0], range: { from: Date; to: Date }) {
  const ctx = { db, principal, clock, config } as Ctx;
  const rows = await db
    .select({ id: eventDates.id, languageId: eventDates.languageId })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(datesCond(where(ctx), range))
    .orderBy(asc(eventDates.id));
  return rows;
}

/** GET /events/:event_id/dates/:id per caller, date and locale (asked once). */
const single = new Map<string, unknown>();
const baseCtx: Ctx = { db, principal: anonymous, clock, config };
const seen = { items: 0, closed: 0, booked: 0, soldOut: 0, bookable: 0, museums: new Set<number>(), pastEnd: 0, pages: 0 };

/** One list answer: cached = plain, ids and total = the plain select, each date = its own GET. */
async function check(url: string, headers: Record<string, string>, expectIds: number[], locale: string) {
  const a = await get(plain, url, headers);
  const b = await get(cached, url, headers);
  assert.equal(a.status, 200, `${url}: ${a.body}`);
  assert.equal(b.body, a.body, `GET ${url}: the app with the memo answers differently`);
  const page = JSON.parse(a.body) as { dates: Array<Record<string, any>>; meta: { total_count: number; page: number; per_page: number } };
  const from = (page.meta.page - 1) * page.meta.per_page;
  assert.equal(page.meta.total_count, expectIds.length, `GET ${url}: total`);
  assert.deepEqual(page.dates.map((d) => d.id), expectIds.slice(from, from + page.meta.per_page), `GET ${url}: ids of the page`);
  if (page.dates.length === 0 && from > 0) seen.pastEnd++;
  seen.pages++;
  for (const d of page.dates) {
    const key = `${headers.authorization ?? ''} ${locale} ${d.id}`;
    if (!single.has(key)) {
      const one = await get(plain, `/events/${d.event_id}/dates/${d.id}${locale ? `?${locale}` : ''}`, headers);
      assert.equal(one.status, 200, `date ${d.id}: ${one.body}`);
      // The one-date answer adds go~mus's detail fields (prices, discount, seatings: schemas/catalog.ts
      // "One date only"); every other field must be the list's.
      const { prices, discount, seatings, ...shared } = JSON.parse(one.body).date as Record<string, unknown>;
      assert.ok(Array.isArray(prices) && discount === 0 && Array.isArray(seatings), `date ${d.id}: the one-date fields`);
      single.set(key, shared);
    }
    assert.deepEqual(d, single.get(key), `GET ${url}: date ${d.id} differs from GET /events/${d.event_id}/dates/${d.id}`);
    seen.items++;
    if (d.closed) seen.closed++;
    if (d.seats.booked > 0) seen.booked++;
    if (d.seats.available === 0) seen.soldOut++;
    if (d.bookable) seen.bookable++;
    seen.museums.add(d.museum_id);
  }
}

test('the schedule json is what the plain reads of the museum, its seasons and its closures give', async () => {
  for (const m of [A, B]) {
    const [row] = await db.select().from(museums).where(eq(museums.id, m.id));
    const seasons = await db.select().from(openingSeasons).where(eq(openingSeasons.museumId, m.id)).orderBy(asc(openingSeasons.startDate));
    const closed = await db.select().from(closures).where(eq(closures.museumId, m.id)).orderBy(asc(closures.id));
    assert.ok(closed.length > 0);
    assert.deepEqual(await scheduleOf({}, db, m.id), {
      museumId: m.id,
      zone: row!.timeZone,
      weekly: row!.openingHours,
      exceptions: row!.openingExceptions ?? {},
      seasons: seasons.map((s) => ({ startDate: s.startDate, endDate: s.endDate, hours: s.hours })),
      closures: closed.map((c) => ({ id: c.id, from: c.startsAt.getTime(), to: c.endsAt.getTime(), ticketIds: c.ticketIds, quotaIds: c.quotaIds, eventIds: c.eventIds, tourIds: c.tourIds, reason: c.reason })),
    });
  }
  assert.equal(await scheduleOf({}, db, 999_999), null);
});

test('GET /dates: the one statement answers as the ordinary paths, for every filter and caller', async () => {
  const lists: Array<[string, Omit<ListDatesInput, 'page' | 'per_page'>]> = [
    ['', {}],
    ['start_at=2026-06-01&end_at=2026-06-30', { start_at: '2026-06-01', end_at: '2026-06-30' }],
    ['start_at=2026-06-09&end_at=2026-06-27', { start_at: '2026-06-09', end_at: '2026-06-27' }],
    ['start_at=2026-07-01&end_at=2026-07-10', { start_at: '2026-07-01', end_at: '2026-07-10' }],
    ['start_at=2026-08-01&end_at=2026-08-05', { start_at: '2026-08-01', end_at: '2026-08-05' }],
    [`by_museum_ids[]=${A.id}`, { by_museum_ids: [A.id] }],
    [`by_museum_ids[]=${B.id}&start_at=2026-06-20&end_at=2026-07-05`, { by_museum_ids: [B.id], start_at: '2026-06-20', end_at: '2026-07-05' }],
    [`by_museum_ids[]=${A.id}&by_museum_ids[]=${B.id}`, { by_museum_ids: [A.id, B.id] }],
    [`by_event_ids[]=${E2.id}&by_event_ids[]=${E3.id}&start_at=2026-06-08&end_at=2026-06-28`, { by_event_ids: [E2.id, E3.id], start_at: '2026-06-08', end_at: '2026-06-28' }],
    [`by_event_ids[]=${E4.id}`, { by_event_ids: [E4.id] }],
    [`by_event_ids[]=${E5.id}`, { by_event_ids: [E5.id] }],
    ['q=Konzert', { q: 'Konzert' }],
    ['q=tour&start_at=2026-06-14&end_at=2026-06-22', { q: 'tour', start_at: '2026-06-14', end_at: '2026-06-22' }],
    [`by_language_ids[]=${de.id}`, { by_language_ids: [de.id] }],
    [`by_category_ids[]=${category}`, { by_category_ids: [category] }],
  ];
  const locales = ['', 'locale=en', 'locale[]=de&locale[]=en'];
  for (const [who, headers, principal] of callers) {
    for (const [query, input] of lists) {
      const range = dateRange(baseCtx, config.zone, input);
      const ids = (await matching(principal, (ctx) => datesWhere(datesFilterOf(ctx, input)), range)).map((r) => r.id);
      const locale = locales[(query.length + who.length) % locales.length]!;
      const base = `/dates?${query}${query && locale ? '&' : ''}${locale}`;
      await check(base, headers, ids, locale);
      // Pages of 9: the first three, the last, and the one past the end.
      const last = Math.ceil(ids.length / 9);
      for (const p of new Set([1, 2, 3, last, last + 1])) if (p >= 1) await check(`${base}&per_page=9&page=${p}`, headers, ids, locale);
      await check(`${base}&per_page=100&page=2`, headers, ids, locale);
      // The languages of the same dates (GET /dates/languages).
      const langs = await get(plain, `/dates/languages?${query}`, headers);
      assert.equal((await get(cached, `/dates/languages?${query}`, headers)).body, langs.body);
      const used = new Set((await matching(principal, (ctx) => datesWhere(datesFilterOf(ctx, input)), range)).map((r) => r.languageId));
      assert.deepEqual((JSON.parse(langs.body) as { languages: Array<{ id: number }> }).languages.map((l) => l.id), [de.id, en.id].filter((l) => used.has(l)), `${who} GET /dates/languages?${query}`);
    }
  }
  // The data reaches every case the statement has to get right.
  assert.ok(seen.items > 500, `only ${seen.items} dates compared`);
  for (const k of ['closed', 'booked', 'soldOut', 'bookable', 'pastEnd'] as const) assert.ok(seen[k] > 0, `no ${k} date or page among the answers`);
  assert.deepEqual([...seen.museums].sort(), [A.id, B.id].sort());
});

test('GET /events/:id/dates and GET /calendar (built on the same page) answer as the ordinary paths', async () => {
  for (const [, headers, principal] of callers) {
    for (const e of allEvents) {
      for (const q of ['', 'start_at=2026-06-08&end_at=2026-06-30', 'start_at=2026-06-20&end_at=2026-07-10&per_page=4&page=2', `by_language_ids[]=${en.id}`]) {
        const res = await get(plain, `/events/${e.id}/dates?${q}`, headers);
        if (res.status === 404) {
          assert.equal((await get(cached, `/events/${e.id}/dates?${q}`, headers)).status, 404);
          continue;
        }
        const input = Object.fromEntries(new URLSearchParams(q)) as Record<string, string>;
        const range = dateRange(baseCtx, Z, input, 31);
        // GET /events/:id/dates filters by the event alone: its visibility is the 404 above.
        const ids = (await matching(principal, () => and(eq(eventDates.eventId, e.id), dateLanguageFilter(input['by_language_ids[]'] ? [en.id] : undefined)), range)).map((r) => r.id);
        await check(`/events/${e.id}/dates?${q}`, headers, ids, '');
      }
    }
    for (const q of ['depth=all', 'depth=all&start_at=2026-06-20&end_at=2026-07-10', `by_museum_ids[]=${A.id}`]) {
      const a = await get(plain, `/calendar?${q}`, headers);
      assert.equal(a.status, 200, a.body);
      assert.equal((await get(cached, `/calendar?${q}`, headers)).body, a.body, `GET /calendar?${q}`);
    }
  }
});
