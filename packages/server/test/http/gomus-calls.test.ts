// A first slice of the go~mus call table (docs/gomus-compatibility.md): each supported public read
// called as the go~mus documentation shows it answers 2xx with the documented top-level keys, and
// each call listed as not supported answers 404 ROUTE_INVALID, so the page stays true.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const ids = { museum: 0, ticket: 0, event: 0, tour: 0 };

before(async () => {
  ids.museum = (await f.museum(db)).id;
  ids.ticket = (await f.ticket(db, { museumId: ids.museum })).id;
  ids.event = (await f.event(db, { museumId: ids.museum })).id;
  ids.tour = (await f.tour(db, { museumId: ids.museum })).id;
});

const SUPPORTED: Array<[string, () => string, string[]]> = [
  ['GET', () => '/tickets?by_museum_ids[]=' + ids.museum, ['tickets', 'meta']],
  ['GET', () => `/tickets/${ids.ticket}`, ['ticket']],
  ['GET', () => `/tickets/content?ticket_ids[]=${ids.ticket}`, ['data', 'meta']],
  ['GET', () => '/events', ['events', 'meta']],
  ['GET', () => `/events/${ids.event}`, ['event']],
  ['GET', () => `/events/${ids.event}/dates`, ['dates', 'meta']],
  ['GET', () => '/events/categories', ['categories']],
  ['GET', () => '/events/age_groups', ['age_groups']],
  ['GET', () => '/dates', ['dates', 'meta']],
  ['GET', () => '/calendar', ['data']],
  ['GET', () => '/tours', ['tours', 'meta']],
  ['GET', () => `/tours/${ids.tour}`, ['tour']],
  ['GET', () => '/countries', ['countries', 'meta']],
  ['GET', () => '/version', ['version']],
];

// The refusal each answers today: an unknown route, or a route with an id that names no record
// (`/tours/bookings` is `/tours/:id`), or, without a token, the customer routes' 401.
const UNSUPPORTED: Array<[string, () => string, number, string]> = [
  ['GET', () => `/tours/${ids.tour}/equipments`, 404, 'ROUTE_INVALID'],
  ['GET', () => '/tours/bookings', 404, 'NOT_FOUND'],
  ['GET', () => '/customers/salutations', 401, 'UNAUTHORIZED'],
  ['GET', () => '/customers/titles', 401, 'UNAUTHORIZED'],
  ['GET', () => '/seatings/1.svg', 404, 'ROUTE_INVALID'],
];

describe('go~mus calls Atrium answers', () => {
  for (const [method, path, keys] of SUPPORTED) {
    test(`${method} ${path.toString().replace(/^\(\) => /, '')}`, async () => {
      const res = await t.request({ method: method as 'GET', url: `/api/v4${path()}` });
      assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode} ${res.body}`);
      for (const k of keys) assert.ok(k in res.json(), k);
    });
  }
});

describe('go~mus calls listed as not supported', () => {
  for (const [method, path, status, code] of UNSUPPORTED) {
    test(`${method} ${path.toString().replace(/^\(\) => /, '')}: ${status} ${code}`, async () => {
      const res = await t.request({ method: method as 'GET', url: `/api/v4${path()}` });
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json().code, code);
    });
  }
});
