// The go~mus public API (public_api.html: museums, exhibitions, tickets, events, tours, locales,
// version and the lookup lists), called as its documentation shows: GET without a token (the
// calls a shop makes), the documented query parameters and bracket arrays, answered 2xx with the
// documented root keys. Each test is named by its call, the way docs/gomus-compatibility.md names
// it in its table (test/http/gomus-calls-doc.test.ts checks that they agree); the calls listed
// there as not supported are checked to be refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const day = f.localDate(5);
const ids = { museum: 0, exhibition: 0, ticket: 0, event: 0, date: 0, tour: 0, language: 0 };
let user = '';

before(async () => {
  ids.museum = (await f.museum(db)).id;
  ids.exhibition = (await f.exhibition(db, { museumId: ids.museum })).id;
  const q = await f.quota(db, { museumId: ids.museum, capacity: 30 });
  ids.ticket = (await f.ticket(db, { museumId: ids.museum, quotaIds: [q.id] })).id;
  ids.event = (await f.event(db, { museumId: ids.museum })).id;
  ids.date = (await f.eventDate(db, { eventId: ids.event, startAt: zonedInstant(day, 14 * 60, 'Europe/Berlin') })).id;
  ids.language = (await f.language(db)).id;
  ids.tour = (await f.tour(db, { museumId: ids.museum, languageIds: [ids.language] })).id;
  user = await t.token({ class: 'user' });
});

interface Call { call: string; url: () => string; keys: string[]; token?: () => string }

const CALLS: Call[] = [
  { call: 'GET /version', url: () => '/version', keys: ['version'] },
  { call: 'GET /whoami', url: () => '/whoami', keys: ['access', 'museums'], token: () => user },
  { call: 'GET /locales', url: () => '/locales', keys: ['locales'] },
  { call: 'GET /museums', url: () => '/museums?q=&locale=de&page=1&per_page=25', keys: ['museums', 'meta'] },
  { call: 'GET /museums/:id', url: () => `/museums/${ids.museum}?locale=en`, keys: ['museum'] },
  { call: 'GET /museums/:id/opening_hours', url: () => `/museums/${ids.museum}/opening_hours?date=${day}`, keys: ['opening_hours'] },
  { call: 'GET /exhibitions', url: () => `/exhibitions?by_museum_ids[]=${ids.museum}&by_featured=false`, keys: ['exhibitions', 'meta'] },
  { call: 'GET /exhibitions/:id', url: () => `/exhibitions/${ids.exhibition}`, keys: ['exhibition'] },
  { call: 'GET /countries', url: () => '/countries?page=1&per_page=25', keys: ['countries', 'meta'] },
  { call: 'GET /states', url: () => '/states', keys: ['states', 'meta'] },
  { call: 'GET /dispatch_modes', url: () => '/dispatch_modes', keys: ['dispatch_modes', 'meta'] },
  { call: 'GET /tickets', url: () => `/tickets?by_museum_ids[]=${ids.museum}&by_ticket_type=time_slot&by_bookable=true&valid_at=${day}&per_page=1000`, keys: ['tickets', 'meta'] },
  { call: 'GET /tickets/:id', url: () => `/tickets/${ids.ticket}?valid_at=${day}`, keys: ['ticket'] },
  { call: 'GET /tickets/:id/capacity', url: () => `/tickets/${ids.ticket}/capacity?date=${day}`, keys: ['data'] },
  { call: 'GET /tickets/capacities', url: () => `/tickets/capacities?ticket_ids[]=${ids.ticket}&date=${day}`, keys: ['data'] },
  { call: 'GET /tickets/calendar', url: () => `/tickets/calendar?by_ticket_ids[]=${ids.ticket}&start_at=${day}&end_at=${day}&depth=any`, keys: ['data'] },
  { call: 'GET /tickets/content', url: () => `/tickets/content?ticket_ids[]=${ids.ticket}&attr=shop_title`, keys: ['data', 'meta'] },
  { call: 'GET /events/categories', url: () => '/events/categories', keys: ['categories'] },
  { call: 'GET /events/languages', url: () => '/events/languages', keys: ['languages'] },
  { call: 'GET /events/age_groups', url: () => '/events/age_groups', keys: ['age_groups'] },
  { call: 'GET /events/audiences', url: () => '/events/audiences', keys: ['audiences'] },
  { call: 'GET /events/catch_words', url: () => '/events/catch_words', keys: ['catch_words'] },
  { call: 'GET /events/proposal_categories', url: () => '/events/proposal_categories', keys: ['proposal_categories'] },
  { call: 'GET /events/grades', url: () => '/events/grades', keys: ['grades'] },
  { call: 'GET /tours/categories', url: () => '/tours/categories', keys: ['categories'] },
  { call: 'GET /tours/languages', url: () => '/tours/languages', keys: ['languages'] },
  { call: 'GET /tours/age_groups', url: () => '/tours/age_groups', keys: ['age_groups'] },
  { call: 'GET /tours/audiences', url: () => '/tours/audiences', keys: ['audiences'] },
  { call: 'GET /tours/catch_words', url: () => '/tours/catch_words', keys: ['catch_words'] },
  { call: 'GET /tours/proposal_categories', url: () => '/tours/proposal_categories', keys: ['proposal_categories'] },
  { call: 'GET /tours/grades', url: () => '/tours/grades', keys: ['grades'] },
  { call: 'GET /events', url: () => `/events?by_museum_ids[]=${ids.museum}&by_language_ids[]=${ids.language}&q=&locale=de`, keys: ['events', 'meta'] },
  { call: 'GET /events/:id', url: () => `/events/${ids.event}`, keys: ['event'] },
  { call: 'GET /events/:id/calendar', url: () => `/events/${ids.event}/calendar?start_at=${day}&end_at=${day}`, keys: ['data'] },
  { call: 'GET /events/:id/dates', url: () => `/events/${ids.event}/dates?date=${day}`, keys: ['dates', 'meta'] },
  { call: 'GET /events/:event_id/dates/:id', url: () => `/events/${ids.event}/dates/${ids.date}`, keys: ['date'] },
  { call: 'GET /dates', url: () => `/dates?by_event_ids[]=${ids.event}&start_at=${day}&end_at=${day}`, keys: ['dates', 'meta'] },
  { call: 'GET /dates/languages', url: () => `/dates/languages?start_at=${day}&end_at=${day}`, keys: ['languages'] },
  { call: 'GET /calendar', url: () => `/calendar?by_event_ids[]=${ids.event}&start_at=${day}&end_at=${day}&depth=all`, keys: ['data'] },
  { call: 'GET /tours', url: () => `/tours?by_museum_ids[]=${ids.museum}&by_language_ids[]=${ids.language}`, keys: ['tours', 'meta'] },
  { call: 'GET /tours/:id', url: () => `/tours/${ids.tour}`, keys: ['tour'] },
  { call: 'GET /tours/:id/prices', url: () => `/tours/${ids.tour}/prices?date=${day}&time=12-00&participants=5&language_id=${ids.language}`, keys: ['prices', 'vat_pct', 'discount', 'tax_included'] },
  { call: 'GET /tours/:id/start_times', url: () => `/tours/${ids.tour}/start_times?start_at=${day}&end_at=${day}&participants=5`, keys: ['data'] },
  { call: 'GET /tours/:id/start_times/:date', url: () => `/tours/${ids.tour}/start_times/${day}`, keys: ['data'] },
];

// The refusal each answers today: an unknown route (404 ROUTE_INVALID).
const REFUSED: Array<{ call: string; url: () => string }> = [
  { call: 'GET /seatings/:id.svg', url: () => '/seatings/1.svg' },
  { call: 'GET /tours/:id/equipments', url: () => `/tours/${ids.tour}/equipments?date=${day}` },
  { call: 'GET /tours/:id/equipments/:equipment_id', url: () => `/tours/${ids.tour}/equipments/1?date=${day}` },
  { call: 'GET /tours/:id/equipments/:equipment_id/:timestamp', url: () => `/tours/${ids.tour}/equipments/1/${day}T12:00:00+02:00` },
];

describe('go~mus public API calls Atrium answers', () => {
  for (const c of CALLS) {
    test(c.call, async () => {
      const res = await t.request({ method: 'GET', url: `/api/v4${c.url()}`, ...(c.token ? { token: c.token() } : {}) });
      assert.equal(res.statusCode, 200, `${c.url()}: ${res.body.slice(0, 300)}`);
      for (const k of c.keys) assert.ok(k in res.json(), `${c.call}: ${k}`);
    });
  }
});

describe('go~mus public API calls listed as not supported', () => {
  for (const c of REFUSED) {
    test(`not supported: ${c.call}`, async () => {
      const res = await t.request({ method: 'GET', url: `/api/v4${c.url()}` });
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().code, 'ROUTE_INVALID');
    });
  }
});
