// Order lifecycle: finalize (barcodes), expiry by the clock, cancellation releasing capacity
// exactly once, updates only while pending, and reservations passing their hold to the order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { checkDigit } from '../../src/domain/orders/barcodes.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const day = f.localDate(4);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
let ticketId: number, dateId: number, tourId: number, langId: number, reseller: string;

const post = (url: string, body: object = {}) => t.request({ method: 'POST', url: `/api/v4${url}`, token: reseller, payload: body });
const order = (quantity: number, min = 600, extra: object = {}) =>
  post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: at(min) } }], ...extra });
async function liveAllocations(orderId: number) {
  const r = await db.execute<{ n: number }>(sql`select count(*)::int n from capacity_allocations a join order_items i on i.id = a.order_item_id
    where i.order_id = ${orderId} and a.released_at is null`);
  return r.rows[0]!.n;
}

before(async () => {
  const museumId = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId, capacity: 10 });
  ticketId = (await f.ticket(db, { museumId, quotaIds: [q.id] })).id;
  const ev = await f.event(db, { museumId });
  dateId = (await f.eventDate(db, { eventId: ev.id, startAt: new Date(at(840)) })).id;
  langId = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId, languageIds: [langId] })).id;
  reseller = await t.token({ class: 'reseller' });
});

describe('order lifecycle', () => {
  test('finalize issues one checksummed barcode per admission and is safe to repeat', async () => {
    const created = await post('/orders', {
      finalize: false, items: [
        { type: 'Ticket', attributes: { id: ticketId, quantity: 3, time: at(630) } },
        { type: 'Event', attributes: { id: dateId, quantity: 2 } },
        { type: 'Tour', attributes: { id: tourId, start_time: at(660), language_id: langId, quantity: 8 } },
      ],
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().order.id;
    const res = await post(`/orders/${id}/finalize`);
    assert.equal(res.statusCode, 200, res.body);
    const o = res.json().order;
    assert.deepEqual([o.status, o.is_valid, o.expires_at], ['finalized', true, null]);
    assert.ok(o.finalized_at);
    assert.deepEqual(o.items.map((i: { attributes: { barcodes: unknown[] } }) => i.attributes.barcodes.length), [3, 2, 1]);
    const codes: string[] = o.items.flatMap((i: { attributes: { barcodes: Array<{ barcode: string; status: string }> } }) =>
      i.attributes.barcodes.map((b) => (assert.equal(b.status, 'valid'), b.barcode)));
    for (const c of codes) {
      assert.match(c, /^\d{12}-\d$/);
      assert.equal(checkDigit(c.slice(0, 12)), Number(c.slice(13)));
    }
    assert.equal(new Set(codes).size, 6);
    const again = await post(`/orders/${id}/finalize`);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json().order, o);
    const byCode = await t.request({ method: 'GET', url: `/api/v4/orders/barcode/${codes[4]}`, token: reseller });
    assert.equal(byCode.json().order.id, id);
  });

  test('finalize: true creates a finalized order in one call', async () => {
    const res = await order(1, 660, { finalize: true });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().order.status, 'finalized');
    assert.equal(res.json().order.items[0].attributes.barcodes.length, 1);
  });

  test('a pending order expires with the clock: capacity is free at once, it cannot be finalized', async () => {
    const a = (await order(10, 690)).json().order;
    assert.equal((await order(1, 690)).json().code, 'SLOT_SOLD_OUT');
    t.clock.advanceMinutes(31);
    const seen = await t.request({ method: 'GET', url: `/api/v4/orders/${a.id}`, token: reseller });
    assert.equal(seen.json().order.status, 'expired');
    const b = await order(10, 690);
    assert.equal(b.statusCode, 201, b.body);
    const fin = await post(`/orders/${a.id}/finalize`);
    assert.equal(fin.statusCode, 422);
    assert.equal(fin.json().code, 'ORDER_EXPIRED');
    const list = await t.request({ method: 'GET', url: '/api/v4/orders?status=expired', token: reseller });
    assert.deepEqual(list.json().orders.map((x: { id: number }) => x.id), [a.id]);
    // The later order, finalized in time, keeps its places for good.
    assert.equal((await post(`/orders/${b.json().order.id}/finalize`)).statusCode, 200);
    t.clock.advanceMinutes(60);
    assert.equal((await order(1, 690)).json().code, 'SLOT_SOLD_OUT');
  });

  test('cancellation releases capacity exactly once and voids barcodes', async () => {
    const a = (await order(10, 720, { finalize: true })).json().order;
    const c1 = await post(`/orders/${a.id}/cancellations`);
    assert.equal(c1.statusCode, 200, c1.body);
    const o = c1.json().order;
    assert.deepEqual([o.status, o.is_valid, o.total_price_cents, o.items[0].status], ['cancelled', false, 0, 'cancelled']);
    assert.ok(o.items[0].attributes.barcodes.every((b: { status: string }) => b.status === 'void'));
    assert.equal(await liveAllocations(a.id), 0);
    const b = await order(10, 720);
    assert.equal(b.statusCode, 201);
    const c2 = await post(`/orders/${a.id}/cancellations`);
    assert.equal(c2.statusCode, 200);
    assert.deepEqual(c2.json().order, o, 'cancelling twice changes nothing');
    assert.equal(await liveAllocations(b.json().order.id), 1);
    assert.equal((await order(1, 720)).json().code, 'SLOT_SOLD_OUT');
  });

  test('cancelling some items keeps the order; unknown item ids are 422', async () => {
    const res = await post('/orders', {
      finalize: false, items: [
        { type: 'Ticket', attributes: { id: ticketId, quantity: 2, time: at(750) } },
        { type: 'Event', attributes: { id: dateId, quantity: 1 } },
      ],
    });
    const o = res.json().order;
    const bad = await post(`/orders/${o.id}/cancellations`, { item_ids: [o.items[0].id, 999999] });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.json().errors[0], /999999/);
    const part = await post(`/orders/${o.id}/cancellations`, { item_ids: [o.items[0].id] });
    const p = part.json().order;
    assert.deepEqual([p.status, p.items[0].status, p.items[1].status, p.total_price_cents], ['pending', 'cancelled', 'active', 800]);
    const fin = await post(`/orders/${o.id}/finalize`);
    assert.deepEqual(fin.json().order.items.map((i: { attributes: { barcodes: unknown[] } }) => i.attributes.barcodes.length), [0, 1]);
  });

  test('PUT changes comment and reference only while pending', async () => {
    const o = (await order(1, 780)).json().order;
    const put = (id: number, body: object) => t.request({ method: 'PUT', url: `/api/v4/orders/${id}`, token: reseller, payload: body });
    const ok = await put(o.id, { order: { comment: 'new', reference: 'R-1' } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual([ok.json().order.comment, ok.json().order.reference], ['new', 'R-1']);
    await post(`/orders/${o.id}/finalize`);
    const fin = await put(o.id, { comment: 'later' });
    assert.deepEqual([fin.statusCode, fin.json().code, fin.json().error], [422, 'ORDER_FINALIZED', 'order is already finalized']);
    await post(`/orders/${o.id}/cancellations`);
    assert.equal((await put(o.id, { comment: 'x' })).json().code, 'ORDER_CANCELLED');
    assert.equal((await post(`/orders/${o.id}/finalize`)).json().code, 'ORDER_CANCELLED');
  });

  test('reservations named in an item pass their hold to the order and are consumed', async () => {
    const hold = await post('/reservations', { reservation: { ticket_id: ticketId, quantity: 10, start_at: at(810) } });
    assert.equal(hold.statusCode, 201, hold.body);
    const token = hold.json().reservation.reservation_token;
    // All 10 places are held by our reservation: without it, the order is sold out.
    assert.equal((await order(10, 810)).json().code, 'SLOT_SOLD_OUT');
    const res = await post('/orders', {
      finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 10, time: at(810), reservations: [token] } }],
    });
    assert.equal(res.statusCode, 201, res.body);
    const reused = await post('/orders', {
      finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time: at(810), reservations: [token] } }],
    });
    assert.equal(reused.statusCode, 422);
    assert.equal(reused.json().code, 'RESERVATION_EXPIRED');
    const unknown = await post('/orders', {
      finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time: at(840), reservations: ['nope'] } }],
    });
    assert.equal(unknown.statusCode, 404);
  });
});
