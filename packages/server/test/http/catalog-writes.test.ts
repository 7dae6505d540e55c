// Staff writes of the catalogue: who may write, museum scope, the rules of rules.ts as 422 with
// `errors`, and that a refused write changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp({ now: '2026-07-06T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
const tok: Record<string, string> = {};
let A = 0;
let B = 0;

const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who = 'staff') =>
  t.request({ method, url: `/api/v4${url}`, ...(payload === undefined ? {} : { payload: payload as object }), ...(tok[who] ? { token: tok[who] } : {}) });
const count = async (table: string) => Number((await db.execute(sql.raw(`select count(*)::int as n from ${table}`))).rows[0]!.n);
const snapshot = async () =>
  JSON.stringify((await db.execute(sql`select (select json_agg(t order by id) from tickets t) as t, (select json_agg(q order by quota_id) from ticket_quotas q) as q, (select json_agg(o) from quota_overrides o) as o`)).rows);

before(async () => {
  A = (await f.museum(db)).id;
  B = (await f.museum(db)).id;
  tok.staff = await t.token({ class: 'user', rights: ['catalog:write'] });
  tok.scoped = await t.token({ class: 'user', museumIds: [A], rights: ['catalog:write'] });
  tok.reader = await t.token({ class: 'user', rights: ['catalog:read', 'orders:write'] });
  tok.reseller = await t.token({ class: 'reseller' });
  tok.public = await t.token({ class: 'public' });
});

const ticketBody = (o: Record<string, unknown> = {}) => ({
  museum_id: A, title: { de: 'Eintritt', en: 'Admission' }, price_cents: 1200, first_entry: 600, last_entry: 960, entry_duration: 30, ...o,
});

describe('who may write', () => {
  test('anonymous 401; public, reseller and users without catalog:write 403; nothing written', async () => {
    const before = await count('tickets');
    for (const [who, status] of [['none', 401], ['public', 403], ['reseller', 403], ['reader', 403]] as const) {
      for (const [m, url] of [['POST', '/tickets'], ['PUT', '/tickets/1'], ['POST', '/museums'], ['POST', '/quotas'], ['PUT', '/quotas/1/overrides/2026-07-07'], ['DELETE', '/quotas/1/overrides/2026-07-07'], ['POST', '/languages'], ['POST', '/events'], ['POST', '/events/1/dates'], ['POST', '/tours'], ['POST', '/exhibitions']] as const) {
        const res = await send(m, url, m === 'DELETE' ? undefined : ticketBody(), who);
        assert.equal(res.statusCode, status, `${who} ${m} ${url}`);
      }
    }
    assert.equal(await count('tickets'), before);
    assert.equal((await t.request({ method: 'GET', url: '/api/v4/quotas', token: tok.reseller })).statusCode, 403);
  });

  test('a user scoped to museum A cannot write museum B records (404) nor create museums (403)', async () => {
    const qB = await f.quota(db, { museumId: B });
    const tB = await f.ticket(db, { museumId: B });
    assert.equal((await send('POST', '/tickets', ticketBody({ museum_id: B }), 'scoped')).statusCode, 404);
    assert.equal((await send('PUT', `/tickets/${tB.id}`, { price_cents: 1 }, 'scoped')).statusCode, 404);
    assert.equal((await send('PUT', `/quotas/${qB.id}`, { capacity: 1 }, 'scoped')).statusCode, 404);
    assert.equal((await send('PUT', `/museums/${B}`, { title: 'x' }, 'scoped')).statusCode, 404);
    assert.equal((await send('POST', '/museums', { title: 'X', opening_hours: Array(7).fill(null) }, 'scoped')).statusCode, 403);
    const moved = await send('PUT', `/tickets/${(await f.ticket(db, { museumId: A })).id}`, { museum_id: B }, 'scoped');
    assert.equal(moved.statusCode, 404, 'moving a ticket out of scope');
    assert.equal((await send('POST', '/tickets', ticketBody(), 'scoped')).statusCode, 201);
  });
});

describe('create and change', () => {
  test('museum, quota, day ticket on a day quota, wrapped or bare bodies', async () => {
    const m = await send('POST', '/museums', { museum: { title: { de: 'Neu' }, opening_hours: [[600, 1080], null, [600, 1080], [600, 1080], [600, 1080], [600, 1080], [600, 1080]] } });
    assert.equal(m.statusCode, 201, m.body);
    const mid = m.json().museum.id;
    assert.equal(m.json().museum.time_zone, 'Europe/Berlin');
    const q = await send('POST', '/quotas', { museum_id: mid, name: 'Tag', kind: 'day', capacity: 500 });
    assert.equal(q.statusCode, 201, q.body);
    const qid = q.json().quota.id;
    const tk = await send('POST', '/tickets', { ticket: ticketBody({ museum_id: mid, ticket_type: 'normal', entry_duration: null, quota_ids: [qid] }) });
    assert.equal(tk.statusCode, 201, tk.body);
    assert.deepEqual(tk.json().ticket.quota_ids, [qid]);
    assert.deepEqual(tk.json().ticket.title, 'Eintritt');
    const changed = await send('PUT', `/tickets/${tk.json().ticket.id}`, { price_cents: 1500, quota_ids: [] });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().ticket.price_cents, 1500);
    assert.deepEqual(changed.json().ticket.quota_ids, []);
    assert.equal(changed.json().ticket.last_entry, 960, 'untouched fields keep their values');
    const nulls = await send('PUT', `/tickets/${tk.json().ticket.id}`, { reseller_price_cents: 900 });
    assert.equal(nulls.json().ticket.reseller_price_cents, 900);
    const cleared = await send('PUT', `/tickets/${tk.json().ticket.id}`, { reseller_price_cents: null });
    assert.equal(cleared.json().ticket.reseller_price_cents, null, 'null clears, it is not coerced to 0');
    const mm = await send('PUT', `/museums/${mid}`, { opening_exceptions: { '2026-07-07': null } });
    assert.deepEqual(mm.json().museum.opening_exceptions, { '2026-07-07': null });
    const oh = await t.request({ method: 'GET', url: `/api/v4/museums/${mid}/opening_hours?date=2026-07-07` });
    assert.equal(oh.json().opening_hours, null);
  });

  test('quota overrides: set, close, delete; unknown date 404', async () => {
    const q = await f.quota(db, { museumId: A });
    const set = await send('PUT', `/quotas/${q.id}/overrides/2026-07-10`, { capacity: 7 });
    assert.equal(set.statusCode, 200, set.body);
    await send('PUT', `/quotas/${q.id}/overrides/2026-07-11`, { capacity: null });
    await send('PUT', `/quotas/${q.id}/overrides/2026-07-10`, { capacity: 9 });
    const got = (await t.request({ method: 'GET', url: `/api/v4/quotas/${q.id}`, token: tok.reader })).json().quota;
    assert.deepEqual(got.overrides, [{ date: '2026-07-10', capacity: 9 }, { date: '2026-07-11', capacity: null }]);
    assert.equal((await send('DELETE', `/quotas/${q.id}/overrides/2026-07-10`)).statusCode, 204);
    assert.equal((await send('DELETE', `/quotas/${q.id}/overrides/2026-07-10`)).statusCode, 404);
    assert.equal((await send('PUT', `/quotas/${q.id}/overrides/2026-02-30`, { capacity: 1 })).statusCode, 422);
    assert.equal((await send('PUT', `/quotas/${q.id}/overrides/2026-07-12`, { capacity: -1 })).statusCode, 422);
  });

  test('languages, events with dates, tours with languages', async () => {
    const lang = await send('POST', '/languages', { language: { code: 'fr', name: 'Français' } });
    assert.equal(lang.statusCode, 201, lang.body);
    const lid = lang.json().language.id;
    const dup = await send('POST', '/languages', { code: 'fr', name: 'Again' });
    assert.equal(dup.statusCode, 422);
    assert.match(dup.json().errors[0], /already taken/);
    const ev = await send('POST', '/events', { museum_id: A, title: 'Abendführung', price_cents: 900 });
    assert.equal(ev.statusCode, 201, ev.body);
    const eid = ev.json().event.id;
    const d = await send('POST', `/events/${eid}/dates`, { start_time: '2026-07-20T19:00:00', seats_max: 12, language_id: lid });
    assert.equal(d.statusCode, 201, d.body);
    assert.equal(d.json().date.start_time, '2026-07-20T19:00:00+02:00');
    assert.deepEqual(d.json().date.language, { id: lid, name: 'Français' });
    const d2 = await send('PUT', `/events/${eid}/dates/${d.json().date.id}`, { seats_max: 15 });
    assert.equal(d2.json().date.seats.max, 15);
    assert.equal((await send('PUT', `/events/${eid + 999}/dates/${d.json().date.id}`, { seats_max: 15 })).statusCode, 404);
    const tour = await send('POST', '/tours', { museum_id: A, title: 'Gruppe', duration: 60, max_persons: 20, price_cents: 9000, language_ids: [lid] });
    assert.equal(tour.statusCode, 201, tour.body);
    assert.deepEqual(tour.json().tour.languages, [{ id: lid, name: 'Français' }]);
    const retour = await send('PUT', `/tours/${tour.json().tour.id}`, { language_ids: [] });
    assert.deepEqual(retour.json().tour.languages, []);
    assert.equal(retour.json().tour.bookable, false, 'no language, no booking');
  });
});

describe('rules: 422 with errors and nothing changed', () => {
  test('ticket rules', async () => {
    const slotQ = await f.quota(db, { museumId: A, kind: 'slot' });
    const otherQ = await f.quota(db, { museumId: B, kind: 'day' });
    const exB = await f.exhibition(db, { museumId: B });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ticket_type: 'normal', entry_duration: null, quota_ids: [slotQ.id] }, /day ticket may only draw from day quotas/],
      [{ first_entry: 900, last_entry: 800 }, /last_entry must not be before first_entry/],
      [{ quota_ids: [otherQ.id] }, /does not exist in museum/],
      [{ quota_ids: [999999] }, /does not exist in museum/],
      [{ exhibition_ids: [exB.id] }, /exhibition .* does not exist in museum/],
      [{ entry_duration: null }, /entry_duration/],
      [{ entry_duration: 10 }, /entry_duration/],
      [{ entry_duration: 721 }, /entry_duration/],
      [{ ticket_type: 'normal', entry_duration: 30 }, /only allowed for time_slot/],
      [{ min_persons: 5, max_persons: 2 }, /max_persons/],
      [{ valid_from: '2026-08-01', valid_until: '2026-07-01' }, /valid_until/],
      [{ title: '' }, /title can't be blank/],
      [{ title: { fr: 'x' } }, /unknown locale/],
      [{ price_cents: 1e12 }, /price_cents/],
      [{ price_cents: 99999999999999999999 }, /price_cents/],
      [{ vat_pct: 1e308 }, /vat_pct/],
      [{ reseller_account_ids: [424242] }, /reseller account 424242 is unknown/],
      [{ museum_id: 'abc' }, /museum_id/],
    ];
    const before = await snapshot();
    for (const [o, msg] of cases) {
      const res = await send('POST', '/tickets', ticketBody(o));
      assert.equal(res.statusCode, 422, `${JSON.stringify(o)}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.match(JSON.stringify(res.json().errors), msg, JSON.stringify(o));
    }
    const existing = await f.ticket(db, { museumId: A, quotaIds: [slotQ.id] });
    const mid = await snapshot();
    for (const o of [{ first_entry: 1000, last_entry: 900 }, { ticket_type: 'normal' }, { quota_ids: [otherQ.id] }, { max_persons: 2147483648 }]) {
      assert.equal((await send('PUT', `/tickets/${existing.id}`, o)).statusCode, 422, JSON.stringify(o));
    }
    assert.equal(await snapshot(), mid, 'failed updates changed nothing');
    assert.notEqual(before, mid);
  });

  test('quota, event date and tour rules', async () => {
    const dayQ = await f.quota(db, { museumId: A, kind: 'day' });
    await f.ticket(db, { museumId: A, ticketType: 'normal', entryDuration: null, quotaIds: [dayQ.id] });
    const kind = await send('PUT', `/quotas/${dayQ.id}`, { kind: 'slot' });
    assert.equal(kind.statusCode, 422);
    assert.match(kind.json().errors[0], /must stay a day quota/);
    assert.equal((await send('POST', '/quotas', { museum_id: A, name: 'x', capacity: -5 })).statusCode, 422);
    assert.equal((await send('POST', '/quotas', { museum_id: A, capacity: 5 })).statusCode, 422, 'name missing');
    const tours = await count('tours');
    for (const o of [{ language_ids: [987654] }, { min_persons: 30, max_persons: 20 }, { window_start: 900, window_end: 600 }, { duration: 5 }]) {
      const res = await send('POST', '/tours', { museum_id: A, title: 'T', duration: 60, max_persons: 20, price_cents: 100, ...o });
      assert.equal(res.statusCode, 422, JSON.stringify(o));
    }
    assert.equal(await count('tours'), tours);
    const e = await f.event(db, { museumId: A });
    const dates = await count('event_dates');
    for (const o of [{ start_time: 'tomorrow', seats_max: 5 }, { start_time: '2026-07-20T10:00:00Z' }, { start_time: '2026-07-20T10:00:00Z', seats_max: 5, seats_min: 9 }, { start_time: '2026-07-20T10:00:00Z', seats_max: 5, language_id: 31337 }]) {
      assert.equal((await send('POST', `/events/${e.id}/dates`, o)).statusCode, 422, JSON.stringify(o));
    }
    assert.equal(await count('event_dates'), dates);
    const bad = await send('POST', '/museums', { title: 'M', opening_hours: [[600, 500], null, null, null, null, null, null], time_zone: 'Mars/Olympus' });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().errors.length, 2);
  });
});
