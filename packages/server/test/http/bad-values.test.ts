// Bad values are a 422 naming the field, never a 500: calendar dates at
// the edges of what PostgreSQL reads (0001-01-01, 9999-12-31), timestamps with impossible UTC
// offsets (+25:00) and JSON text with lone UTF-16 surrogates, on every date/time parameter.
// One rule in the shared parsing layer (domain/time.ts, http/api/json-text.ts) serves them all.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { localDate } from '../helpers/factories.ts';
import { catalogue, type Catalogue } from '../jobs/support.ts';
import { isValidDate, parseTimestamp } from '../../src/domain/time.ts';

const t = await testApp({ env: { ATRIUM_RESELLER_RATE_LIMIT: '1000000' } });
after(() => t.close());
const db = t.database.db;
let c: Catalogue, staff: string, reseller: string, quotaId: number;

before(async () => {
  c = await catalogue(db);
  staff = await t.token({ class: 'user' });
  reseller = await t.token({ class: 'reseller' });
  quotaId = (await db.execute<{ id: number }>(sql`select id from quotas limit 1`)).rows[0]!.id;
});

const BAD_DATES = ['0001-01-01', '9999-12-31', '0000-01-01', '1899-12-31', '3000-01-01'];
const BAD_TIMES = ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0001-01-01T00:30:00+01:00', '2026-11-23T10:00:00+25:00', '2026-11-23T10:00:00-14:30', '2026-11-23T10:00:00+10:75'];
const q = encodeURIComponent;

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object; token?: string };
/** Every date (d) and date-time (t) parameter of the API, as a call carrying the value `v`. */
function calls(): Array<[string, 'd' | 't' | 'dt', (v: string) => Call]> {
  const tour = c.tourId;
  const item = (time: string) => ({ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time } });
  return [
    ['GET /museums/:id/opening_hours?date', 'd', (v) => ({ method: 'GET', url: `/museums/${c.museumId}/opening_hours?date=${q(v)}` })],
    ['GET /tickets?valid_at', 'd', (v) => ({ method: 'GET', url: `/tickets?valid_at=${q(v)}` })],
    ['GET /tickets/:id?valid_at', 'd', (v) => ({ method: 'GET', url: `/tickets/${c.ticketId}?valid_at=${q(v)}` })],
    ['GET /events/:id/dates?date', 'd', (v) => ({ method: 'GET', url: `/events/1/dates?date=${q(v)}` })],
    ['GET /events/:id/dates?start_at', 'd', (v) => ({ method: 'GET', url: `/events/1/dates?start_at=${q(v)}` })],
    ['GET /events/:id/dates?end_at', 'd', (v) => ({ method: 'GET', url: `/events/1/dates?end_at=${q(v)}` })],
    ['GET /dates?date', 'd', (v) => ({ method: 'GET', url: `/dates?date=${q(v)}` })],
    ['GET /dates?start_at', 'd', (v) => ({ method: 'GET', url: `/dates?start_at=${q(v)}` })],
    ['GET /dates?end_at', 'd', (v) => ({ method: 'GET', url: `/dates?end_at=${q(v)}` })],
    ['GET /tickets/:id/capacity?date', 'd', (v) => ({ method: 'GET', url: `/tickets/${c.ticketId}/capacity?date=${q(v)}` })],
    ['GET /tickets/capacities?date', 'd', (v) => ({ method: 'GET', url: `/tickets/capacities?ticket_ids=${c.ticketId}&date=${q(v)}` })],
    ['GET /tickets/calendar?start_at', 'd', (v) => ({ method: 'GET', url: `/tickets/calendar?ticket_ids=${c.ticketId}&start_at=${q(v)}` })],
    ['GET /tickets/calendar?end_at', 'd', (v) => ({ method: 'GET', url: `/tickets/calendar?ticket_ids=${c.ticketId}&end_at=${q(v)}` })],
    ['GET /tours/:id/start_times/:date', 'd', (v) => ({ method: 'GET', url: `/tours/${tour}/start_times/${q(v)}` })],
    ['PUT /quotas/:id/overrides/:date', 'd', (v) => ({ method: 'PUT', url: `/quotas/${quotaId}/overrides/${q(v)}`, payload: { capacity: 5 } })],
    ['DELETE /quotas/:id/overrides/:date', 'd', (v) => ({ method: 'DELETE', url: `/quotas/${quotaId}/overrides/${q(v)}` })],
    ['GET /orders?start_at', 'dt', (v) => ({ method: 'GET', url: `/orders?start_at=${q(v)}` })],
    ['GET /orders?end_at', 'dt', (v) => ({ method: 'GET', url: `/orders?end_at=${q(v)}` })],
    ['GET /orders?updated_since', 'dt', (v) => ({ method: 'GET', url: `/orders?updated_since=${q(v)}` })],
    ['GET /requests?updated_since', 'dt', (v) => ({ method: 'GET', url: `/requests?updated_since=${q(v)}` })],
    ['POST /reservations start_at', 't', (v) => ({ method: 'POST', url: '/reservations', payload: { ticket_id: c.ticketId, quantity: 1, start_at: v }, token: reseller })],
    ['POST /orders item time', 't', (v) => ({ method: 'POST', url: '/orders', payload: { finalize: false, items: [item(v)] }, token: reseller })],
    ['POST /requests date', 'd', (v) => ({ method: 'POST', url: '/requests', payload: { date: v, participants: 5, customer: { name: 'A', surname: 'B', email: 'a@example.org' }, items: [{ tour_id: tour, language_id: c.langId, start_time: c.at(660) }] }, token: reseller })],
    ['POST /requests start_time', 't', (v) => ({ method: 'POST', url: '/requests', payload: { date: localDate(5), participants: 5, customer: { name: 'A', surname: 'B', email: 'a@example.org' }, items: [{ tour_id: tour, language_id: c.langId, start_time: v }] }, token: reseller })],
    ['POST /events/:id/dates start_time', 't', (v) => ({ method: 'POST', url: '/events/1/dates', payload: { start_time: v, duration: 60, seats_max: 10 } })],
  ];
}

const send = (k: Call) => t.request({ method: k.method, url: `/api/v4${k.url}`, token: k.token ?? staff, ...(k.payload ? { payload: k.payload } : {}) });

describe('dates and times out of range are a 422 naming the field', () => {
  test('every date and date-time parameter, every bad value', async () => {
    const failures: string[] = [];
    for (const [name, kind, make] of calls()) {
      const values = kind === 'd' ? BAD_DATES : kind === 't' ? BAD_TIMES : [...BAD_DATES, ...BAD_TIMES];
      for (const v of values) {
        const res = await send(make(v));
        const field = name.split(/[ ?/]/).pop()!.replace(/^:/, '');
        if (res.statusCode !== 422 || !res.body.includes(field)) failures.push(`${name} = ${v}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('control: a good value passes every one of those parameters (no 422)', async () => {
    const failures: string[] = [];
    for (const [name, kind, make] of calls()) {
      const res = await send(make(kind === 't' ? c.at(630) : localDate(5)));
      if (res.statusCode === 422 || res.statusCode >= 500) failures.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
  });
});

describe('lone UTF-16 surrogates in JSON text', () => {
  const lone = ['\\ud800', '\\udfff', 'abc\\udbffdef', '\\udc00\\ud800'];
  test('are a 422 naming the field on every JSON body, nothing written', async () => {
    const before = (await db.execute<{ n: number }>(sql`select (select count(*) from customers) + (select count(*) from requests) n`)).rows[0]!.n;
    for (const s of lone) {
      const bodies: Array<[string, string, string]> = [
        ['/customers', `{"name":"A${s}","surname":"B","email":"a@example.org"}`, 'name'],
        ['/requests', `{"date":"${localDate(5)}","participants":5,"notes":"x${s}","customer":{"name":"A","surname":"B","email":"a@example.org"},"items":[{"tour_id":${c.tourId},"language_id":${c.langId},"start_time":"${c.at(660)}"}]}`, 'notes'],
        ['/requests', `{"date":"${localDate(5)}","participants":5,"contact":{"name":"N${s}","email":"n@example.org"},"customer":{"name":"A","surname":"B","email":"a@example.org"},"items":[{"tour_id":${c.tourId},"language_id":${c.langId},"start_time":"${c.at(660)}"}]}`, 'contact.name'],
        ['/orders', `{"comment":"${s}","items":[{"type":"Ticket","attributes":{"id":${c.ticketId},"quantity":1,"time":"${c.at(630)}","attendees":[{"name":"x","surname":"y"}]}}]}`, 'comment'],
      ];
      for (const [url, payload, field] of bodies) {
        const res = await t.request({ method: 'POST', url: `/api/v4${url}`, token: reseller, payload, headers: { 'content-type': 'application/json' } });
        assert.equal(res.statusCode, 422, `${url} ${s}: ${res.body}`);
        assert.ok(res.json().errors.some((e: string) => e.includes(field)), `${url}: ${res.body}`);
      }
    }
    const afterCount = (await db.execute<{ n: number }>(sql`select (select count(*) from customers) + (select count(*) from requests) n`)).rows[0]!.n;
    assert.equal(afterCount, before);
  });

  test('a proper surrogate pair (emoji) is still accepted', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v4/customers', token: reseller, payload: '{"name":"A\\ud83d\\ude00","surname":"B","email":"a@example.org"}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().customer.name, 'A😀');
  });
});

describe('the shared parsers (property)', () => {
  test('parseTimestamp accepts only offsets within ±14:00 and instants in the supported years', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('+', '-'), (oh, om, sign) => {
        const text = `2026-06-01T12:00:00${sign}${String(oh).padStart(2, '0')}:${String(om).padStart(2, '0')}`;
        const ok = oh * 60 + om <= 14 * 60;
        assert.equal(parseTimestamp(text, 'Europe/Berlin') !== null, ok, text);
      }),
    );
  });

  test('every accepted date and timestamp lies in 1900–2999, every such calendar date is accepted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
        const date = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const inRange = y >= 1900 && y <= 2999;
        assert.equal(isValidDate(date), inRange, date);
        const at = parseTimestamp(`${date}T12:00:00Z`, 'UTC');
        assert.equal(at !== null, inRange, date);
      }),
    );
  });
});
