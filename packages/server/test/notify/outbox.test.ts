// The outbox: every reported change writes exactly its events in its own transaction, on every
// path (single order_place, group-committed batches, savepoints of a request accept), and a
// rolled-back change leaves no event.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { recordExpiredOrders } from '../../src/domain/events/recordExpiredOrders.ts';
import { systemCtx } from '../../src/domain/context.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const day = f.localDate(4);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
let ticketId: number, reseller: string;

const post = (url: string, body: object = {}) => t.request({ method: 'POST', url: `/api/v4${url}`, token: reseller, payload: body });
const order = (quantity: number, extra: object = {}) =>
  post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: at(600) } }], ...extra });
async function eventsOf(orderId: number) {
  const r = await db.execute<{ id: string; type: string; data: unknown }>(
    sql`select id, type, data from outbox_events where subject_type = 'order' and subject_id = ${orderId} order by seq`,
  );
  return r.rows;
}

before(async () => {
  const museumId = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId, capacity: 20 });
  ticketId = (await f.ticket(db, { museumId, quotaIds: [q.id] })).id;
  reseller = await t.token({ class: 'reseller' });
});

describe('outbox', () => {
  test('create, finalize and cancel each record one event with a stable evt_ id', async () => {
    const created = await order(2);
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().order.id;
    assert.deepEqual((await eventsOf(id)).map((e) => e.type), ['order.created']);
    assert.equal((await post(`/orders/${id}/finalize`)).statusCode, 200);
    assert.equal((await post(`/orders/${id}/finalize`)).statusCode, 200); // repeated: no new event
    const itemId = created.json().order.items[0].id;
    assert.equal((await post(`/orders/${id}/cancellations`, { item_ids: [itemId] })).statusCode, 200);
    const evs = await eventsOf(id);
    assert.deepEqual(evs.map((e) => e.type), ['order.created', 'order.finalized', 'order.cancelled']);
    for (const e of evs) assert.match(e.id, /^evt_[0-9a-f]{32}$/);
    assert.deepEqual(evs[2]!.data, { cancelled_item_ids: [itemId] });
  });

  test('finalize: true records created and finalized; a refused order records nothing', async () => {
    const res = await order(1, { finalize: true });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual((await eventsOf(res.json().order.id)).map((e) => e.type), ['order.created', 'order.finalized']);
    const before = (await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events`)).rows[0]!.n;
    const sold = await order(500);
    assert.equal(sold.statusCode, 422);
    const afterN = (await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events`)).rows[0]!.n;
    assert.equal(afterN, before);
  });

  test('orders written together by group commit each get their own events', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => order(1)));
    const ok = results.filter((r) => r.statusCode === 201);
    assert.ok(ok.length >= 1);
    for (const r of ok) assert.deepEqual((await eventsOf(r.json().order.id)).map((e) => e.type), ['order.created']);
    const refused = results.filter((r) => r.statusCode !== 201).length;
    const total = (await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events where type = 'order.created'`)).rows[0]!.n;
    assert.equal(refused + ok.length, 12);
    assert.equal(total, 2 + ok.length);
  });

  test('an expired pending order is reported once', async () => {
    const res = await order(1);
    const id = res.json().order.id;
    const ctx = systemCtx({ db, clock: t.clock, config: t.config });
    t.clock.advance((t.config.orderPendingMinutes + 2) * 60_000);
    assert.ok((await recordExpiredOrders(ctx)) >= 1);
    assert.equal(await recordExpiredOrders(ctx), 0);
    assert.deepEqual((await eventsOf(id)).map((e) => e.type), ['order.created', 'order.expired']);
  });
});
