// Group booking requests: foreign_id duplicate protection incl. a 50-way race, and reads with
// visibility by role and museum scope, filters, pagination and updated_since.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const day = f.localDate(5);
const at = (min: number, d = day) => zonedInstant(d, min, 'Europe/Berlin').toISOString();
let tourId: number, otherTourId: number, langId: number;
let museumA: number, museumB: number;
let reseller: string, other: string, staffA: string, staffB: string, reader: string, noRights: string;

const post = (body: object, token = reseller) => t.request({ method: 'POST', url: '/api/v4/requests', token, payload: body });
const get = (url: string, token = reseller) => t.request({ method: 'GET', url: `/api/v4${url}`, token });
const anna = { name: 'Anna', surname: 'Müller', email: 'anna@example.org' };
const valid = (extra: object = {}) => ({
  date: day,
  participants: 12,
  items: [{ tour_id: tourId, start_time: at(660), language_id: langId }],
  customer: anna,
  ...extra,
});
async function counts() {
  const r = await db.execute<{ r: number; i: number; c: number }>(sql`select
    (select count(*)::int from requests) r, (select count(*)::int from request_items) i, (select count(*)::int from customers) c`);
  return r.rows[0]!;
}

before(async () => {
  museumA = (await f.museum(db)).id;
  museumB = (await f.museum(db)).id;
  langId = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId: museumA, languageIds: [langId] })).id;
  otherTourId = (await f.tour(db, { museumId: museumB, languageIds: [langId] })).id;
  reseller = await t.token({ class: 'reseller' });
  other = await t.token({ class: 'reseller' });
  staffA = await t.token({ class: 'user', museumIds: [museumA], rights: ['requests:write'] });
  staffB = await t.token({ class: 'user', museumIds: [museumB], rights: ['requests:write'] });
  reader = await t.token({ class: 'user', rights: ['requests:read'] });
  noRights = await t.token({ class: 'user', rights: ['orders:write'] });
});

describe('foreign_id duplicate protection', () => {
  const requestsWith = async (fid: string) =>
    (await db.execute<{ n: number }>(sql`select count(*)::int n from requests where foreign_id = ${fid}`)).rows[0]!.n;

  test('same content replays (200, Idempotent-Replayed), different content conflicts, other accounts may reuse', async () => {
    const first = await post(valid({ foreign_id: 'dup-1' }));
    assert.equal(first.statusCode, 201);
    // Key order and wrapping do not matter.
    const { customer, ...rest } = valid({ foreign_id: 'dup-1' });
    const again = await post({ request: { customer, ...rest } });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json().request, first.json().request);
    const conflict = await post(valid({ foreign_id: 'dup-1', participants: 13 }));
    assert.equal(conflict.statusCode, 422);
    assert.equal(conflict.json().code, 'FOREIGN_ID_CONFLICT');
    assert.equal(await requestsWith('dup-1'), 1);
    assert.equal((await post(valid({ foreign_id: 'dup-1', participants: 13 }), other)).statusCode, 201);
  });

  test('50 parallel identical POSTs make exactly one request (and one customer)', async () => {
    const before = await counts();
    const results = await Promise.all(Array.from({ length: 50 }, () => post(valid({ foreign_id: 'dup-par' }))));
    const statuses = results.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 200).length, 49, results.find((r) => r.statusCode >= 300)?.body);
    assert.equal(new Set(results.map((r) => r.json().request.id)).size, 1);
    assert.equal(await requestsWith('dup-par'), 1);
    const after = await counts();
    assert.deepEqual([after.r - before.r, after.i - before.i, after.c - before.c], [1, 1, 1]);
  });
});

describe('GET /requests', () => {
  test('resellers see their own, staff their museums, readers all; others get 404', async () => {
    const a = (await post(valid({ foreign_id: 'vis-a' }), other)).json().request;
    const b = (await post(valid({ foreign_id: 'vis-b', items: [{ tour_id: otherTourId, start_time: at(660), language_id: langId }] }), other)).json().request;
    assert.equal((await get(`/requests/${a.id}`, other)).json().request.id, a.id);
    assert.equal((await get(`/requests/${a.id}`, reseller)).statusCode, 404);
    assert.equal((await get(`/requests/${a.id}`, staffA)).statusCode, 200);
    assert.equal((await get(`/requests/${b.id}`, staffA)).statusCode, 404);
    assert.equal((await get(`/requests/${b.id}`, staffB)).statusCode, 200);
    assert.equal((await get(`/requests/${b.id}`, reader)).statusCode, 200);
    assert.equal((await get(`/requests/${b.id}`, noRights)).statusCode, 403);
    assert.equal((await t.request({ method: 'GET', url: `/api/v4/requests/${b.id}` })).statusCode, 401);
    assert.equal((await get('/requests/999999')).statusCode, 404);
    assert.equal((await get('/requests/abc')).statusCode, 404); // go~mus: an id that cannot exist is unknown
    const mine = (await get('/requests?per_page=100', other)).json().requests.map((r: { id: number }) => r.id);
    assert.ok(mine.includes(a.id) && mine.includes(b.id));
    const all = (await get('/requests?per_page=100', reseller)).json().requests;
    assert.ok(!all.some((r: { id: number }) => r.id === a.id || r.id === b.id));
    const inA = (await get('/requests?per_page=100', staffA)).json().requests.map((r: { id: number }) => r.id);
    assert.ok(inA.includes(a.id) && !inA.includes(b.id));
  });

  test('filters foreign_id and status; pagination envelope, id ascending', async () => {
    const mine = await t.token({ class: 'reseller' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(valid({ foreign_id: `page-${i}` }), mine)).json().request.id);
    const p2 = (await get('/requests?per_page=2&page=2', mine)).json();
    assert.deepEqual(p2.meta, { total_count: 5, page: 2, per_page: 2 });
    assert.deepEqual(p2.requests.map((r: { id: number }) => r.id), ids.slice(2, 4));
    const byFid = (await get('/requests?foreign_id=page-3', mine)).json();
    assert.deepEqual([byFid.meta.total_count, byFid.requests[0].id], [1, ids[3]]);
    assert.equal((await get('/requests?status=pending', mine)).json().meta.total_count, 5);
    assert.equal((await get('/requests?status=declined', mine)).json().meta.total_count, 0);
    assert.equal((await get('/requests?status=bogus', mine)).statusCode, 422);
    assert.equal((await get('/requests?per_page=500', mine)).json().meta.per_page, 100);
  });

  test('updated_since takes a timestamp or a local date', async () => {
    const mine = await t.token({ class: 'reseller' });
    const old = (await post(valid(), mine)).json().request;
    t.clock.advanceMinutes(10);
    const since = t.clock.now().toISOString();
    const fresh = (await post(valid(), mine)).json().request;
    const list = (await get(`/requests?updated_since=${encodeURIComponent(since)}`, mine)).json();
    assert.deepEqual(list.requests.map((r: { id: number }) => r.id), [fresh.id]);
    const today = f.localDate(0, 'Europe/Berlin', t.clock.now());
    const byDay = (await get(`/requests?updated_since=${today}`, mine)).json().requests.map((r: { id: number }) => r.id);
    assert.ok(byDay.includes(fresh.id));
    assert.ok(byDay.includes(old.id) === (f.localDate(0, 'Europe/Berlin', new Date(old.created_at)) === today));
    assert.equal((await get('/requests?updated_since=yesterday', mine)).statusCode, 422);
  });
});

