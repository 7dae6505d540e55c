// Event data is the subject as it was when the event happened (docs/adr/0023): every event of an
// order is dispatched only after the order was created, finalized and cancelled, and still each
// shows the order at its own moment. The latest one must equal GET /orders/:id, so the snapshot's
// SQL and the API's loaders cannot drift apart unnoticed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';
import { catalogue, type Catalogue } from '../jobs/support.ts';

const t = await testApp({ env: { ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1' } });
after(() => t.close());
const db = t.database.db;
const ctx = systemCtx({ db, clock: t.clock, config: t.config });
let c: Catalogue;
let token: string;
const api = (method: 'GET' | 'POST', url: string, payload?: object) => t.request({ method, url: `/api/v4${url}`, token, ...(payload ? { payload } : {}) });

before(async () => {
  c = await catalogue(db);
  token = await t.token({ class: 'reseller' });
  const res = await api('POST', '/webhooks', { webhook: { url: 'http://127.0.0.1:9/hook', events: ['order.created', 'order.finalized', 'order.cancelled'] } });
  assert.equal(res.statusCode, 201, res.body);
});

async function dispatchedData(orderId: number) {
  while ((await dispatchEvents(ctx)) > 0);
  const r = await db.execute<{ type: string; data: { order: Record<string, any>; cancelled_item_ids?: number[] } }>(
    sql`select type, data from outbox_events where subject_type = 'order' and subject_id = ${orderId} order by seq`,
  );
  return r.rows;
}

describe('event snapshots', () => {
  test('each order event shows the order as it was then, however late it is dispatched', async () => {
    const created = await api('POST', '/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 2, time: c.at(630) } }] });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().order.id as number;
    t.clock.advance(60_000);
    const finalized = await api('POST', `/orders/${id}/finalize`);
    assert.equal(finalized.statusCode, 200);
    t.clock.advance(60_000);
    assert.equal((await api('POST', `/orders/${id}/cancellations`, {})).statusCode, 200);

    const [c1, f1, x1] = await dispatchedData(id);
    assert.deepEqual([c1!.type, f1!.type, x1!.type], ['order.created', 'order.finalized', 'order.cancelled']);
    // Created: pending, no barcodes, no documents yet — as POST /orders answered.
    assert.equal(c1!.data.order.status, 'pending');
    assert.deepEqual(c1!.data.order, created.json().order);
    // Finalized: valid, items active with their barcodes, documents queued — not the cancelled order.
    const f = f1!.data.order;
    assert.equal(f.status, 'finalized');
    assert.equal(f.is_valid, true);
    assert.equal(f.cancelled_at, null);
    assert.deepEqual(f.items.map((i: { status: string }) => i.status), ['active']);
    assert.equal(f.items[0].attributes.barcodes.length, 2);
    assert.ok(f.items[0].attributes.barcodes.every((b: { status: string }) => b.status === 'valid'), JSON.stringify(f.items[0].attributes.barcodes));
    assert.deepEqual(f.items[0].attributes.barcodes, finalized.json().order.items[0].attributes.barcodes);
    assert.ok(f.documents.length >= 1);
    // Cancelled: the order now, exactly as GET shows it, plus which items the cancellation took.
    const now = (await api('GET', `/orders/${id}`)).json().order;
    assert.equal(x1!.data.order.status, 'cancelled');
    assert.deepEqual(x1!.data.order, now);
    assert.deepEqual(x1!.data.cancelled_item_ids, [f.items[0].id]);
  });

  test('an order created finalized in one call reports both events with the finalized order', async () => {
    const res = await api('POST', '/orders', { finalize: true, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(660) } }] });
    assert.equal(res.statusCode, 201, res.body);
    const [a, b] = await dispatchedData(res.json().order.id);
    assert.deepEqual(a!.data.order, res.json().order);
    assert.deepEqual(b!.data.order, res.json().order);
  });
});
