// go~mus fields on tickets and events (docs/gomus-compatibility.md): present on lists and single
// records, `[]`/`null`/`false` rather than missing keys; an event's `location` is its museum's
// address, and follows a change of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const ADDRESS = { name: 'Testmuseum', street: 'Museumsinsel', zip: '10178', city: 'Berlin', country: 'Deutschland', latitude: 52.52, longitude: 13.4 };
let user = '';
let museumId = 0, bare = 0, eventId = 0, bareEventId = 0, ticketId = 0;
const get = (url: string, token?: string) => t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });
const TAGS = ['age_groups', 'audiences', 'catch_words', 'disablements', 'grades', 'proposal_categories'];

before(async () => {
  user = await t.token({ class: 'user' });
  museumId = (await f.museum(db, { location: ADDRESS })).id;
  bare = (await f.museum(db)).id;
  eventId = (await f.event(db, { museumId })).id;
  bareEventId = (await f.event(db, { museumId: bare })).id;
  ticketId = (await f.ticket(db, { museumId })).id;
});

describe('ticket fields', () => {
  test('personalizeable, identification and after_sale_information: go~mus defaults, list and detail', async () => {
    const listed = (await get(`/tickets?by_ticket_ids[]=${ticketId}`)).json().tickets[0];
    const one = (await get(`/tickets/${ticketId}`)).json().ticket;
    for (const x of [listed, one]) {
      assert.equal(x.personalizeable, false);
      assert.equal(x.identification, false);
      assert.ok('after_sale_information' in x);
      assert.equal(x.after_sale_information, null);
    }
  });
});

describe('event fields', () => {
  test('location is the museum address, or null; registerable, content and the tag lists are there', async () => {
    const list = (await get(`/events?per_page=100`)).json().events as Record<string, unknown>[];
    const one = (await get(`/events/${eventId}`)).json().event;
    for (const x of [list.find((e) => e.id === eventId)!, one]) {
      assert.deepEqual(x.location, ADDRESS);
      assert.equal(x.registerable, false);
      assert.deepEqual(x.content, {});
      for (const k of TAGS) assert.deepEqual(x[k], [], k);
    }
    const none = list.find((e) => e.id === bareEventId)!;
    assert.ok('location' in none);
    assert.equal(none.location, null);
  });

  test('a changed museum address shows on its events at once, and in the write answer', async () => {
    const res = await t.request({ method: 'PUT', url: `/api/v4/museums/${museumId}`, token: user, payload: { museum: { location: { ...ADDRESS, city: 'Potsdam' } } } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await get(`/events?per_page=100`)).json().events.find((e: { id: number }) => e.id === eventId).location.city, 'Potsdam');
    assert.equal((await get(`/events/${eventId}`)).json().event.location.city, 'Potsdam');
    const put = await t.request({ method: 'PUT', url: `/api/v4/events/${eventId}`, token: user, payload: { event: { featured: true } } });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().event.location.city, 'Potsdam');
    for (const k of TAGS) assert.deepEqual(put.json().event[k], [], k);
  });
});

describe('event date detail fields', () => {
  test('one date carries prices (the event price per seat), discount 0 and seatings []', async () => {
    const ev = await f.event(db, { museumId, priceCents: 1250, vatPct: 7 });
    const d = await f.eventDate(db, { eventId: ev.id, startAt: new Date(Date.now() + 7 * 86_400_000) });
    const res = await get(`/events/${ev.id}/dates/${d.id}`);
    assert.equal(res.statusCode, 200, res.body);
    const one = res.json().date;
    assert.deepEqual(one.prices, [{ group: false, optional: false, price_cents: 1250, vat_pct: 7 }]);
    assert.equal(one.discount, 0);
    assert.deepEqual(one.seatings, []);
  });
});

describe('upcoming_bookings_start_times', () => {
  test('the next bookable dates, museum-local "YYYY-MM-DD HH:MM:SS", earliest first, list and detail', async () => {
    const at = (days: number, min: number) => zonedInstant(f.localDate(days), min, 'Europe/Berlin');
    const ev = await f.event(db, { museumId });
    // Created out of time order: the answer is sorted by start, not by id.
    await f.eventDate(db, { eventId: ev.id, startAt: at(5, 840), seatsMax: 10 });
    await f.eventDate(db, { eventId: ev.id, startAt: at(3, 600), seatsMax: 10 });
    await f.eventDate(db, { eventId: ev.id, startAt: at(4, 600), seatsMax: 0 }); // sold out
    await f.eventDate(db, { eventId: ev.id, startAt: at(4, 660), seatsMax: 10, active: false }); // withdrawn
    await f.eventDate(db, { eventId: ev.id, startAt: new Date(Date.now() - 86_400_000), seatsMax: 10 }); // past
    await f.eventDate(db, { eventId: ev.id, startAt: at(200, 600), seatsMax: 10 }); // beyond the horizon
    const want = [`${f.localDate(3)} 10:00:00`, `${f.localDate(5)} 14:00:00`];
    const listed = (await get(`/events?per_page=100`)).json().events.find((e: { id: number }) => e.id === ev.id);
    assert.deepEqual(listed.upcoming_bookings_start_times, want);
    // Twice: the second list answer comes from kept row JSON, and must still carry the field.
    const again = (await get(`/events?per_page=100`)).json().events.find((e: { id: number }) => e.id === ev.id);
    assert.deepEqual(again.upcoming_bookings_start_times, want);
    assert.deepEqual((await get(`/events/${ev.id}`)).json().event.upcoming_bookings_start_times, want);
    // An event without dates: an empty list, not a missing key.
    assert.deepEqual((await get(`/events/${bareEventId}`)).json().event.upcoming_bookings_start_times, []);
  });

  test('at most five, and a date that sells out leaves the list', async () => {
    const at = (days: number) => zonedInstant(f.localDate(days), 600, 'Europe/Berlin');
    const ev = await f.event(db, { museumId });
    const first = await f.eventDate(db, { eventId: ev.id, startAt: at(2), seatsMax: 10 });
    for (let d = 3; d <= 8; d++) await f.eventDate(db, { eventId: ev.id, startAt: at(d), seatsMax: 10 });
    const times = (await get(`/events/${ev.id}`)).json().event.upcoming_bookings_start_times;
    assert.deepEqual(times, [2, 3, 4, 5, 6].map((d) => `${f.localDate(d)} 10:00:00`));
    const put = await t.request({ method: 'PUT', url: `/api/v4/events/${ev.id}/dates/${first.id}`, token: user, payload: { date: { active: false } } });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual((await get(`/events/${ev.id}`)).json().event.upcoming_bookings_start_times, [3, 4, 5, 6, 7].map((d) => `${f.localDate(d)} 10:00:00`));
  });
});

describe('GET /tickets/content', () => {
  test('each visible ticket of ticket_ids[] with an empty content; ticket_ids[] is required', async () => {
    const other = (await f.ticket(db, { museumId })).id;
    const res = await get(`/tickets/content?ticket_ids[]=${ticketId}&ticket_ids[]=${other}&attr=description&locale=de`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.data.map((x: { id: number }) => x.id).sort(), [ticketId, other].sort());
    for (const x of body.data) assert.deepEqual(x.content, {});
    assert.equal(body.meta.total_count, 2);
    const missing = await get('/tickets/content');
    assert.equal(missing.statusCode, 422, missing.body);
    assert.match(missing.body, /ticket_ids/);
  });
});

describe('tour fields', () => {
  test('location is the museum address (or null); registerable, content and the tag lists are there, list, detail and write', async () => {
    const tourId = (await f.tour(db, { museumId })).id;
    const bareTour = (await f.tour(db, { museumId: bare })).id;
    const list = (await get(`/tours?per_page=100`, user)).json().tours as Record<string, unknown>[];
    const one = (await get(`/tours/${tourId}`, user)).json().tour;
    const put = await t.request({ method: 'PUT', url: `/api/v4/tours/${tourId}`, token: user, payload: { tour: { featured: true } } });
    assert.equal(put.statusCode, 200, put.body);
    for (const x of [list.find((e) => e.id === tourId)!, one, put.json().tour]) {
      assert.equal((x.location as { street: string }).street, ADDRESS.street);
      assert.equal(x.registerable, false);
      assert.deepEqual(x.content, {});
      for (const k of TAGS) assert.deepEqual(x[k], [], k);
    }
    const none = list.find((e) => e.id === bareTour)!;
    assert.ok('location' in none);
    assert.equal(none.location, null);
  });
});
