// Request state changes and who may make them: accept books exactly one finalized order through
// the orders domain and consumes capacity; a full slot leaves the request pending and writes
// nothing; decline needs a reason; only the requester withdraws; nothing moves twice.
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
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
let tourId: number, langId: number, museumA: number, museumB: number;
let reseller: string, other: string, staff: string, staffB: string, reader: string;

const call = (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object) =>
  t.request({ method, url: `/api/v4${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
const accept = (id: number, token = staff) => call('POST', `/requests/${id}/accept`, token);
const decline = (id: number, body: object, token = staff) => call('POST', `/requests/${id}/decline`, token, body);
const withdraw = (id: number, token = reseller) => call('POST', `/requests/${id}/withdraw`, token);
async function newRequest(minutes: number[] = [660], token = reseller, participants = 12): Promise<{ id: number; customer_id: number }> {
  const res = await call('POST', '/requests', token, {
    date: day,
    participants,
    items: minutes.map((m) => ({ tour_id: tourId, start_time: at(m), language_id: langId })),
    customer: { name: 'Anna', surname: 'Müller', email: 'anna@example.org' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().request;
}
async function written() {
  const r = await db.execute<{ orders: number; items: number; allocations: number; barcodes: number; customers: number }>(sql`select
    (select count(*)::int from orders) orders, (select count(*)::int from order_items) items,
    (select count(*)::int from capacity_allocations) allocations, (select count(*)::int from barcodes) barcodes,
    (select count(*)::int from customers) customers`);
  return r.rows[0]!;
}
/** Bookable participants at a start time (0 = the run is taken). */
async function bookable(minutes: number): Promise<number> {
  const res = await call('GET', `/tours/${tourId}/start_times/${day}?language_id=${langId}`, reseller);
  assert.equal(res.statusCode, 200, res.body);
  const slot = res.json().data.find((s: { start_time: string }) => new Date(s.start_time).toISOString() === at(minutes));
  return slot ? slot.participants.bookable : 0;
}

before(async () => {
  museumA = (await f.museum(db)).id;
  museumB = (await f.museum(db)).id;
  langId = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId: museumA, languageIds: [langId], maxConcurrent: 1, duration: 60 })).id;
  reseller = await t.token({ class: 'reseller' });
  other = await t.token({ class: 'reseller' });
  staff = await t.token({ class: 'user', museumIds: [museumA], rights: ['requests:write'] });
  staffB = await t.token({ class: 'user', museumIds: [museumB], rights: ['requests:write'] });
  reader = await t.token({ class: 'user', rights: ['requests:read'] });
});

describe('accept', () => {
  test('books one finalized order for the tours, consumes the run, and the requester sees its order', async () => {
    const req = await newRequest([600]);
    assert.equal(await bookable(600), 25);
    const before = await written();
    const res = await accept(req.id);
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json().request;
    assert.equal(r.status, 'accepted');
    assert.ok(r.order_id > 0);
    const after = await written();
    assert.deepEqual(
      [after.orders - before.orders, after.items - before.items, after.allocations - before.allocations, after.barcodes - before.barcodes],
      [1, 1, 1, 1],
    );
    assert.equal(await bookable(600), 0);
    const order = (await call('GET', `/orders/${r.order_id}`, reseller)).json().order;
    assert.equal(order.status, 'finalized');
    assert.equal(order.customer_id, req.customer_id);
    assert.equal(order.items.length, 1);
    assert.deepEqual([order.items[0].type, order.items[0].quantity, order.items[0].attributes.tour_id], ['Tour', 12, tourId]);
    assert.equal(new Date(order.items[0].attributes.start_time).toISOString(), at(600));
    assert.equal((await call('GET', `/requests/${req.id}`, reseller)).json().request.order_id, r.order_id);
  });

  test('a second accept (sequential or concurrent) is REQUEST_NOT_PENDING and books nothing more', async () => {
    const req = await newRequest([690]);
    const results = await Promise.all(Array.from({ length: 5 }, () => accept(req.id)));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422)) assert.equal(r.json().code, 'REQUEST_NOT_PENDING');
    const before = await written();
    const again = await accept(req.id);
    assert.equal(again.statusCode, 422);
    assert.deepEqual(again.json(), { ...again.json(), error: 'request is accepted and can no longer change', code: 'REQUEST_NOT_PENDING' });
    assert.equal((await decline(req.id, { reason: 'late' })).json().code, 'REQUEST_NOT_PENDING');
    assert.equal((await withdraw(req.id)).json().code, 'REQUEST_NOT_PENDING');
    assert.deepEqual(await written(), before);
    const orders = await db.execute<{ n: number }>(sql`select count(*)::int n from orders where reference = ${`request ${req.id}`}`);
    assert.equal(orders.rows[0]!.n, 1);
  });

  test('a full slot: 422 SLOT_SOLD_OUT, the request stays pending, nothing is written (all items or none)', async () => {
    // The 14:00 run is taken by a reseller order (max_concurrent 1).
    const taken = await call('POST', '/orders', other, {
      items: [{ type: 'Tour', attributes: { id: tourId, start_time: at(840), language_id: langId, quantity: 5 } }],
      finalize: true,
    });
    assert.equal(taken.statusCode, 201, taken.body);
    const req = await newRequest([780, 840]); // 13:00 is free, 14:00 is not
    const before = await written();
    const res = await accept(req.id);
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'SLOT_SOLD_OUT');
    assert.deepEqual(await written(), before);
    assert.equal(await bookable(780), 25);
    const seen = (await call('GET', `/requests/${req.id}`, staff)).json().request;
    assert.deepEqual([seen.status, seen.order_id], ['pending', null]);
    // Once the other order is cancelled the same request can be accepted.
    assert.equal((await call('POST', `/orders/${taken.json().order.id}/cancellations`, other, {})).statusCode, 200);
    assert.equal((await accept(req.id)).json().request.status, 'accepted');
  });
});

describe('permissions', () => {
  test('resellers cannot accept or decline; a user without requests:write gets 403; anonymous 401', async () => {
    const req = await newRequest([930]);
    assert.equal((await accept(req.id, reseller)).statusCode, 403);
    assert.equal((await decline(req.id, { reason: 'x' }, reseller)).statusCode, 403);
    assert.equal((await accept(req.id, reader)).statusCode, 403);
    assert.equal((await decline(req.id, { reason: 'x' }, reader)).statusCode, 403);
    assert.equal((await withdraw(req.id, reader)).statusCode, 403);
    assert.equal((await call('POST', `/requests/${req.id}/accept`, undefined)).statusCode, 401);
    const pub = await t.token({ class: 'public' });
    assert.equal((await withdraw(req.id, pub)).statusCode, 403);
    assert.equal((await call('GET', `/requests/${req.id}`, staff)).json().request.status, 'pending');
  });

  test('out of scope is 404: another reseller, staff of another museum; staff may not withdraw', async () => {
    const req = await newRequest([945]);
    const before = await written();
    assert.equal((await withdraw(req.id, other)).statusCode, 404);
    assert.equal((await accept(req.id, staffB)).statusCode, 404);
    assert.equal((await decline(req.id, { reason: 'x' }, staffB)).statusCode, 404);
    const byStaff = await withdraw(req.id, staff);
    assert.equal(byStaff.statusCode, 403);
    assert.equal(byStaff.json().error, 'only the account that made a request may withdraw it');
    assert.equal((await accept(999999)).statusCode, 404);
    assert.deepEqual(await written(), before);
    assert.equal((await call('GET', `/requests/${req.id}`, reseller)).json().request.status, 'pending');
  });
});

describe('decline and withdraw', () => {
  test('decline needs a reason; then declined with it, and it moves no further', async () => {
    const req = await newRequest([615]);
    for (const body of [{}, { reason: '   ' }, { reason: null }]) {
      const res = await decline(req.id, body);
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().error, 'request could not be declined');
      assert.deepEqual(res.json().errors, ["Reason can't be blank"]);
    }
    assert.equal((await call('GET', `/requests/${req.id}`, reseller)).json().request.status, 'pending');
    t.clock.advanceMinutes(1);
    const res = await decline(req.id, { request: { reason: ' Fully booked that week ' } });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json().request;
    assert.deepEqual([r.status, r.decline_reason, r.order_id], ['declined', 'Fully booked that week', null]);
    assert.ok(r.updated_at > r.created_at);
    assert.equal((await accept(req.id)).json().code, 'REQUEST_NOT_PENDING');
    assert.equal((await withdraw(req.id)).json().code, 'REQUEST_NOT_PENDING');
    const list = (await call('GET', `/requests?status=declined&updated_since=${encodeURIComponent(t.clock.now().toISOString())}`, reseller)).json();
    assert.deepEqual(list.requests.map((x: { id: number }) => x.id), [req.id]);
  });

  test('the requester withdraws while pending (reseller or user); no later decision', async () => {
    const req = await newRequest([630]);
    const res = await withdraw(req.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().request.status, 'withdrawn');
    assert.equal((await withdraw(req.id)).json().code, 'REQUEST_NOT_PENDING');
    assert.equal((await accept(req.id)).json().code, 'REQUEST_NOT_PENDING');
    const own = await newRequest([645], staff);
    assert.equal((await withdraw(own.id, staff)).json().request.status, 'withdrawn');
  });
});
