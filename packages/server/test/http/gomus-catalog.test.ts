// go~mus catalogue calls (docs/gomus-compatibility.md): GET /calendar (depth any/all),
// GET /tours/:id/prices and the event/tour tag collections, through the real app: shapes,
// visibility, clear 422s on bad input, and master-data caching (ETag, max-age, 304).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
let reseller: string;
let museumId: number, eventId: number, hiddenEventId: number, tourId: number, langId: number, otherLang: number;
const day1 = f.localDate(3);
const day2 = f.localDate(4);
const at = (day: string, min: number) => zonedInstant(day, min, 'Europe/Berlin');

const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: `/api/v4${url}`, headers, ...(token ? { token } : {}) });

before(async () => {
  reseller = await t.token({ class: 'reseller' });
  museumId = (await f.museum(db)).id;
  eventId = (await f.event(db, { museumId })).id;
  // A date that is full: the day has a date but nothing bookable.
  await f.eventDate(db, { eventId, startAt: at(day1, 600), seatsMax: 10 });
  await f.eventDate(db, { eventId, startAt: at(day1, 840), seatsMax: 0 });
  await f.eventDate(db, { eventId, startAt: at(day2, 840), seatsMax: 0 });
  // Shop-only: resellers must not see its dates.
  hiddenEventId = (await f.event(db, { museumId, salesChannels: ['shop'] })).id;
  await f.eventDate(db, { eventId: hiddenEventId, startAt: at(day2, 900), seatsMax: 30 });
  langId = (await f.language(db)).id;
  otherLang = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId, languageIds: [langId], pricing: 'person', priceCents: 1200, resellerPriceCents: 1000, vatPct: 19, minPersons: 5, maxPersons: 20 })).id;
});

describe('GET /calendar', () => {
  test('per day: true when a date can still be booked, false otherwise, every day of the range present', async () => {
    const res = await get(`/calendar?start_at=${day1}&end_at=${day2}&by_event_ids[]=${eventId}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { data: { [day1]: true, [day2]: false } });
  });

  test('depth=all lists the dates of each day with their seats', async () => {
    const res = await get(`/calendar?start_at=${day1}&end_at=${day2}&depth=all&by_event_ids[]=${eventId}`);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.equal(data[day1].length, 2);
    assert.deepEqual(data[day1][0].date.seats, { max: 10, booked: 0, available: 10 });
    assert.equal(data[day1][0].date.event_id, eventId);
    assert.equal(data[day1][0].date.bookable, true);
    assert.equal(data[day1][1].date.bookable, false);
    assert.match(data[day1][0].date.start_time, new RegExp(`^${day1}T10:00:00\\+0[12]:00$`));
  });

  test('only dates the caller may see: a shop-only event is shown publicly, not to a reseller', async () => {
    const pub = (await get(`/calendar?start_at=${day2}&end_at=${day2}&by_museum_ids[]=${museumId}`)).json();
    assert.deepEqual(pub, { data: { [day2]: true } });
    const res = (await get(`/calendar?start_at=${day2}&end_at=${day2}&by_museum_ids[]=${museumId}`, reseller)).json();
    assert.deepEqual(res, { data: { [day2]: false } });
  });

  test('a year at once: 46 days (a deployed go~mus client) and 366 days, every date of the range listed', async () => {
    const m = (await f.museum(db)).id;
    const e = (await f.event(db, { museumId: m })).id;
    // More dates than an anonymous page holds (25), spread over the whole year.
    for (let i = 0; i < 30; i++) await f.eventDate(db, { eventId: e, startAt: at(f.localDate(3 + i * 12), 600), seatsMax: 5 });
    const weeks = await get(`/calendar?start_at=${day1}&end_at=${f.localDate(3 + 45)}&by_event_ids[]=${e}`);
    assert.equal(weeks.statusCode, 200, weeks.body);
    assert.equal(Object.keys(weeks.json().data).length, 46);
    const year = await get(`/calendar?start_at=${day1}&end_at=${f.localDate(3 + 365)}&depth=all&by_event_ids[]=${e}`);
    assert.equal(year.statusCode, 200, year.body);
    const data = year.json().data as Record<string, Array<{ date: { event_id: number } }>>;
    assert.equal(Object.keys(data).length, 366);
    assert.equal(Object.values(data).flat().length, 30);
  });

  test('bad input is a clear 422 and nothing else', async () => {
    for (const [q, msg] of [
      [`start_at=${day1}&end_at=${f.localDate(3 + 366)}`, /366 days/],
      [`start_at=${day2}&end_at=${day1}`, /end_at/],
      ['start_at=2026-02-30', /start_at/],
      ['depth=some', /depth/],
    ] as const) {
      const res = await get(`/calendar?${q}`);
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
      assert.match(res.json().error + JSON.stringify(res.json().errors ?? []), msg);
    }
  });

  test('cached like the other master data: ETag, private max-age, 304 on If-None-Match', async () => {
    const url = `/calendar?start_at=${day1}&end_at=${day2}`;
    const first = await get(url);
    assert.match(String(first.headers['cache-control']), /private, max-age=\d+/);
    const etag = String(first.headers.etag);
    assert.ok(etag);
    const again = await get(url, undefined, { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });
});

describe('GET /tours/:id/prices', () => {
  test('one default price, per person, the reseller price for resellers', async () => {
    const pub = await get(`/tours/${tourId}/prices?date=${day1}&time=12-00&participants=6&language_id=${langId}`);
    assert.equal(pub.statusCode, 200, pub.body);
    assert.deepEqual(pub.json(), { prices: [{ group: false, optional: false, price_cents: 1200, vat_pct: 19 }], vat_pct: 19, discount: 0, tax_included: true });
    const res = await get(`/tours/${tourId}/prices`, reseller);
    assert.equal(res.json().prices[0].price_cents, 1000);
    assert.match(String(pub.headers['cache-control']), /private, max-age=\d+/);
    assert.ok(pub.headers.etag);
  });

  test('participants outside the tour limits, another language, a bad date: 422; unknown or non-numeric tour: 404', async () => {
    for (const q of ['participants=4', 'participants=21', `language_id=${otherLang}`, 'date=2026-13-01', 'participants=abc', 'time=noon']) {
      const res = await get(`/tours/${tourId}/prices?${q}`);
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
    }
    assert.equal((await get(`/tours/${tourId}/prices?language_id=${otherLang}`)).json().code, 'LANGUAGE_NOT_AVAILABLE');
    assert.equal((await get('/tours/999999/prices')).statusCode, 404);
    assert.equal((await get('/tours/abc/prices')).statusCode, 404);
  });
});

describe('event and tour tag collections', () => {
  test('answer as go~mus, an empty list each (Atrium keeps none), instead of routing to /events/:id', async () => {
    for (const of of ['events', 'tours']) {
      for (const key of ['age_groups', 'audiences', 'catch_words', 'proposal_categories', 'grades']) {
        const res = await get(`/${of}/${key}`);
        assert.equal(res.statusCode, 200, `${of}/${key}: ${res.body}`);
        assert.deepEqual(res.json(), { [key]: [] });
        assert.match(String(res.headers['cache-control']), /private, max-age=\d+/);
      }
    }
  });
});
