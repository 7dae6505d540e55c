// Reading orders: who sees what (resellers their own, users their museums, others 404), lookup by
// id, token and barcode, list filters and pagination.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp({ now: '2026-03-10T09:00:00Z' });
after(() => t.close());
const db = t.database.db;
const day = '2026-03-20';
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
let m1: number, m2: number, t1: number, t2: number, resA: string, resB: string;
const ids: Record<string, number> = {};

const get = (url: string, token: string) => t.request({ method: 'GET', url: `/api/v4${url}`, token });
const create = (token: string, ticket: number, extra: object = {}) =>
  t.request({ method: 'POST', url: '/api/v4/orders', token, payload: { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticket, quantity: 1, time: at(600) } }], ...extra } });

before(async () => {
  m1 = (await f.museum(db)).id;
  m2 = (await f.museum(db)).id;
  t1 = (await f.ticket(db, { museumId: m1, quotaIds: [(await f.quota(db, { museumId: m1 })).id] })).id;
  t2 = (await f.ticket(db, { museumId: m2, quotaIds: [(await f.quota(db, { museumId: m2 })).id] })).id;
  resA = await t.token({ class: 'reseller' });
  resB = await t.token({ class: 'reseller' });
  ids.a1 = (await create(resA, t1, { foreign_id: 'a-1' })).json().order.id;
  t.clock.advanceMinutes(24 * 60); // the next orders are created a day later
  ids.a2 = (await create(resA, t2, { finalize: true })).json().order.id;
  ids.b1 = (await create(resB, t1)).json().order.id;
});

describe('order reads', () => {
  test('resellers see only their own orders; others are 404', async () => {
    const list = await get('/orders', resA);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json().orders.map((o: { id: number }) => o.id), [ids.a1, ids.a2]);
    assert.deepEqual(list.json().meta, { total_count: 2, page: 1, per_page: 25 });
    assert.equal((await get(`/orders/${ids.b1}`, resA)).statusCode, 404);
    assert.equal((await get(`/orders/${ids.a1}`, resA)).json().order.foreign_id, 'a-1');
    assert.equal((await get('/orders/999999', resA)).json().error, 'order not found');
  });

  test('an order is found by its token', async () => {
    const o = (await get(`/orders/${ids.a2}`, resA)).json().order;
    assert.equal((await get(`/orders/${o.token}`, resA)).json().order.id, ids.a2);
    assert.equal((await get(`/orders/${o.token}`, resB)).statusCode, 404);
  });

  test('users with orders:read see orders touching their museums; without the right 403', async () => {
    const u1 = await t.token({ class: 'user', museumIds: [m1], rights: ['orders:read'] });
    const all = await t.token({ class: 'user', rights: ['orders:read'] });
    assert.deepEqual((await get('/orders', u1)).json().orders.map((o: { id: number }) => o.id), [ids.a1, ids.b1]);
    assert.equal((await get(`/orders/${ids.a2}`, u1)).statusCode, 404);
    assert.equal((await get('/orders', all)).json().meta.total_count, 3);
    assert.equal((await get('/orders', await t.token({ class: 'user', rights: ['customers:read'] }))).statusCode, 403);
    assert.equal((await get('/orders', await t.token({ class: 'public' }))).statusCode, 403);
    assert.equal((await t.request({ method: 'GET', url: '/api/v4/orders' })).statusCode, 401);
    // A user in museum 1 cannot change an order of museum 2 either.
    const w1 = await t.token({ class: 'user', museumIds: [m1], rights: ['orders:write'] });
    assert.equal((await t.request({ method: 'POST', url: `/api/v4/orders/${ids.a2}/cancellations`, token: w1, payload: {} })).statusCode, 404);
  });

  test('filters: foreign_id, status, creation dates and timestamps, updated_since', async () => {
    const idsOf = async (q: string) => (await get(`/orders?${q}`, resA)).json().orders.map((o: { id: number }) => o.id);
    assert.deepEqual(await idsOf('foreign_id=a-1'), [ids.a1]);
    assert.deepEqual(await idsOf('foreign_id=zzz'), []);
    assert.deepEqual(await idsOf('status=finalized'), [ids.a2]);
    assert.deepEqual(await idsOf('status=expired'), [ids.a1], 'created a day ago, past its 30 minutes');
    assert.deepEqual(await idsOf('status=pending'), []);
    assert.deepEqual(await idsOf('start_at=2026-03-11'), [ids.a2]);
    assert.deepEqual(await idsOf('end_at=2026-03-10'), [ids.a1]);
    assert.deepEqual(await idsOf('start_at=2026-03-10&end_at=2026-03-11'), [ids.a1, ids.a2]);
    assert.deepEqual(await idsOf(`start_at=${encodeURIComponent('2026-03-10T10:01:00+01:00')}`), [ids.a2]);
    assert.deepEqual(await idsOf(`updated_since=${encodeURIComponent('2026-03-11T09:00:00Z')}`), [ids.a2]);
    const bad = await get('/orders?start_at=yesterday', resA);
    assert.equal(bad.statusCode, 422);
    assert.equal((await get('/orders?status=lost', resA)).statusCode, 422);
  });

  test('pagination caps per_page and rejects nonsense', async () => {
    const p2 = (await get('/orders?per_page=1&page=2', resA)).json();
    assert.deepEqual([p2.orders.length, p2.orders[0].id, p2.meta], [1, ids.a2, { total_count: 2, page: 2, per_page: 1 }]);
    assert.equal((await get('/orders?per_page=1000', resA)).json().meta.per_page, 100);
    assert.equal((await get('/orders?per_page=0', resA)).statusCode, 422);
    assert.equal((await get('/orders?page=x', resA)).statusCode, 422);
  });

  test('barcode lookup: visible orders only, check digit verified', async () => {
    const code: string = (await get(`/orders/${ids.a2}`, resA)).json().order.items[0].attributes.barcodes[0].barcode;
    assert.equal((await get(`/orders/barcode/${code}`, resA)).json().order.id, ids.a2);
    assert.equal((await get(`/orders/barcode/${code.replace('-', '')}`, resA)).json().order.id, ids.a2);
    assert.equal((await get(`/orders/barcode/${code}`, resB)).statusCode, 404);
    const wrong = code.slice(0, 13) + String((Number(code[13]) + 1) % 10);
    assert.equal((await get(`/orders/barcode/${wrong}`, resA)).statusCode, 404);
  });
});
