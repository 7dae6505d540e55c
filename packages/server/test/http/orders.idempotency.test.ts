// Duplicate protection by foreign_id (spec 7.4): a repeat with the same content returns the
// existing order (200, Idempotent-Replayed), different content is FOREIGN_ID_CONFLICT, and 50
// parallel identical POSTs still make exactly one order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const at = (min: number) => zonedInstant(f.localDate(6), min, 'Europe/Berlin').toISOString();
let ticketId: number, reseller: string, other: string;

const post = (body: object, token = reseller) => t.request({ method: 'POST', url: '/api/v4/orders', token, payload: body });
const body = (foreign_id: string, quantity = 2) => ({ foreign_id, finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: at(600) } }] });
async function ordersWith(foreignId: string) {
  return (await db.execute<{ n: number }>(sql`select count(*)::int n from orders where foreign_id = ${foreignId}`)).rows[0]!.n;
}

before(async () => {
  const museumId = (await f.museum(db)).id;
  ticketId = (await f.ticket(db, { museumId, quotaIds: [(await f.quota(db, { museumId, capacity: 1000 })).id] })).id;
  reseller = await t.token({ class: 'reseller' });
  other = await t.token({ class: 'reseller' });
});

describe('foreign_id duplicate protection', () => {
  test('a repeat with the same content replays the order; key order and wrapping do not matter', async () => {
    const first = await post(body('fid-1'));
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const b = body('fid-1');
    const again = await post({ order: { items: b.items, finalize: b.finalize, foreign_id: b.foreign_id } });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json().order, first.json().order);
    assert.equal(await ordersWith('fid-1'), 1);
  });

  test('different content with a known foreign_id is FOREIGN_ID_CONFLICT; another account may reuse it', async () => {
    await post(body('fid-2'));
    const conflict = await post(body('fid-2', 3));
    assert.equal(conflict.statusCode, 422);
    assert.equal(conflict.json().code, 'FOREIGN_ID_CONFLICT');
    assert.equal(await ordersWith('fid-2'), 1);
    assert.equal((await post(body('fid-2', 3), other)).statusCode, 201);
  });

  test('after a timeout the client finds its order by foreign_id', async () => {
    await post(body('fid-3'));
    const found = await t.request({ method: 'GET', url: '/api/v4/orders?foreign_id=fid-3', token: reseller });
    assert.equal(found.json().orders.length, 1);
    assert.equal(found.json().orders[0].foreign_id, 'fid-3');
  });

  test('50 parallel identical POSTs make exactly one order', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => post(body('fid-par', 1))));
    const statuses = results.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 200).length, 49, results.find((r) => r.statusCode >= 300)?.body);
    assert.equal(new Set(results.map((r) => r.json().order.id)).size, 1);
    assert.equal(await ordersWith('fid-par'), 1);
    const seats = await db.execute<{ n: number }>(sql`select coalesce(sum(quantity), 0)::int n from order_items i join orders o on o.id = i.order_id where o.foreign_id = 'fid-par'`);
    assert.equal(seats.rows[0]!.n, 1);
  });

  test('50 parallel POSTs with one foreign_id and different content: one order, the rest conflicts or replays', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post(body('fid-mix', (i % 2) + 1))));
    assert.equal(results.filter((r) => r.statusCode === 201).length, 1);
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      assert.ok(r.statusCode === 200 || r.json().code === 'FOREIGN_ID_CONFLICT', r.body);
    }
    assert.equal(await ordersWith('fid-mix'), 1);
  });
});
