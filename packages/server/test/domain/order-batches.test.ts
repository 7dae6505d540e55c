// Group commit of new orders (ADR 0010, src/db/repositories/ordersBatch.ts): orders that queue
// while a batch is being written go out together in one transaction, and each still ends as it
// would have alone. One lane here, so every burst of parallel orders really is batched; each test
// also checks that it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { quotaLockKey } from '../../src/domain/capacity/locks.ts';
import { batchStats, OrderBatches } from '../../src/db/repositories/ordersBatch.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const day = f.localDate(5);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin');

let t: TestApp;
let token: string;
let ticketId: number;
let quotaId: number;
before(async () => {
  t = await testApp({ env: { ATRIUM_ORDER_BATCH_LANES: '1', ATRIUM_LOCK_TIMEOUT_MS: '300' } });
  const db = t.database.db;
  const museumId = (await f.museum(db)).id;
  quotaId = (await f.quota(db, { museumId, capacity: 5 })).id;
  ticketId = (await f.ticket(db, { museumId, quotaIds: [quotaId] })).id;
  token = await t.token({ class: 'reseller', rateLimitPerMinute: 1_000_000 });
});
after(() => t.close());

function order(time: Date, extra: Record<string, unknown> = {}) {
  return t
    .request({
      method: 'POST',
      url: '/api/v4/orders',
      token,
      payload: { items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time: time.toISOString() } }], finalize: true, ...extra },
    })
    .then((r) => ({ status: r.statusCode, replayed: r.headers['idempotent-replayed'], body: r.json() as { order?: { id: number }; code?: string } }));
}

const stats = () => ({ batches: 0, batchedOrders: 0, largest: 0, ...batchStats(t.database.pool) });
const count = async (q: string) => Number((await t.database.pool.query<{ n: string }>(q)).rows[0]!.n);

/** Runs `work` while another transaction holds the capacity lock of `slot` (then rolls back). */
async function whileLocked<T>(slot: Date, work: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: t.database.url });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1::bigint)', [quotaLockKey(quotaId, slot).toString()]);
    return await work();
  } finally {
    await holder.query('rollback');
    await holder.end();
  }
}

describe('group commit of new orders', () => {
  test('a sold-out slot refuses only the orders that do not fit; the rest of the batch commits', async () => {
    const full = at(600);
    const free = at(630);
    const before = stats();
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => order(i % 2 ? free : full)));
    const s = stats();
    assert.ok(s.batches > before.batches && s.largest > 1, `batched: ${JSON.stringify(s)}`);

    const onFull = results.filter((_, i) => i % 2 === 0);
    const onFree = results.filter((_, i) => i % 2 === 1);
    assert.equal(onFull.filter((r) => r.status === 201).length, 5);
    assert.deepEqual(onFull.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.code}`), Array(7).fill('422 SLOT_SOLD_OUT'));
    assert.equal(onFree.filter((r) => r.status === 201).length, 5);
    // What was answered is what is stored: 10 orders, one allocation and one barcode each.
    assert.equal(await count(`select count(*) n from orders`), 10);
    assert.equal(await count(`select coalesce(sum(quantity), 0) n from capacity_allocations where released_at is null`), 10);
    assert.equal(await count(`select count(*) n from barcodes`), 10);
    const ids = results.flatMap((r) => (r.status === 201 ? [r.body.order!.id] : []));
    assert.equal(new Set(ids).size, 10);
  });

  test('parallel duplicates of one foreign_id in one batch make one order', async () => {
    const before = stats();
    const results = await Promise.all(Array.from({ length: 12 }, () => order(at(720), { foreign_id: 'batch-dup-1' })));
    assert.ok(stats().batchedOrders > before.batchedOrders, 'batched');
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    assert.ok(results.every((r) => r.status === 201 || (r.status === 200 && r.replayed === 'true')), JSON.stringify(results.map((r) => r.status)));
    assert.equal(new Set(results.map((r) => r.body.order!.id)).size, 1);
    assert.equal(await count(`select count(*) n from orders where foreign_id = 'batch-dup-1'`), 1);
  });

  test('a slot locked by another writer refuses only its own orders (CAPACITY_BUSY); the others commit', async () => {
    const busy = at(780);
    const other = at(840);
    await whileLocked(busy, async () => {
      const before = stats();
      const times = [other, busy, other, other, busy, other];
      const results = await Promise.all(times.map((time) => order(time)));
      assert.ok(stats().batches > before.batches, 'batched');
      assert.deepEqual(
        results.map((r) => `${r.status} ${r.body.code ?? ''}`.trim()),
        ['201', '422 CAPACITY_BUSY', '201', '201', '422 CAPACITY_BUSY', '201'],
      );
    });
    assert.equal(await count(`select count(*) n from order_items where start_at = '${busy.toISOString()}'`), 0);
    assert.equal((await order(busy)).status, 201, 'free again once the other writer is done');
  });
});

describe('OrderBatches, with payloads written by hand', () => {
  // order_place payloads as placeOrder builds them (migration 0006); with a slot, they claim one place of it.
  let accountId: number;
  before(async () => {
    accountId = Number((await t.database.db.execute<{ id: number }>(sql`select id from accounts order by id limit 1`)).rows[0]!.id);
  });
  let n = 0;
  /** `slot`: the order claims one place of it (quota `quotaId`, capacity 100). */
  const payload = (ticket: number, slot?: Date) => {
    n += 1;
    const now = new Date().toISOString();
    const start = (slot ?? at(900)).toISOString();
    const claim = slot && {
      keys: [quotaLockKey(quotaId, slot).toString()], lock_timeout: '300ms', now, release: [], expires_at: null, race_window_ms: 0,
      demands: [{ item: 1, resource: 'quota', resource_id: quotaId, slot_start: start, slot_end: null, quantity: 1, capacity: 100 }],
    };
    return JSON.stringify({
      order: {
        account_id: accountId, foreign_id: null, token: `hand-written-${n}`, status: 'pending', source: 'api', customer_id: null,
        comment: null, reference: `hand ${n}`, total_price_cents: 1400, currency: 'EUR', museum_ids: [1], request_hash: 'x',
        created_at: now, updated_at: now, expires_at: now, finalized_at: null,
      },
      items: [{ type: 'Ticket', museum_id: 1, ticket_id: ticket, event_date_id: null, tour_id: null, language_id: null, quantity: 1,
        start_at: start, unit_price_cents: 1400, price_cents: 1400, vat_pct: 7, tax_included: true, attendees: null }],
      consume: [], barcodes: [], codes: [], documents: [], document: { available_until: now }, claim: claim ?? null,
    });
  };
  /** Places `jsons` as one burst on one lane: the first goes alone, the rest as one batch. */
  async function burst(jsons: string[]) {
    const b = new OrderBatches(t.database.pool, { maxBatch: 32, lanes: 1 });
    const doneAt: number[] = [];
    const settled = await Promise.allSettled(jsons.map((j, i) => b.place(j).finally(() => (doneAt[i] = Date.now()))));
    return { settled, stats: b.stats, doneAt };
  }

  test('only the first order of a batch waits for a busy lock; a later one tries it and waits in a later batch', async () => {
    const busy = at(960);
    const other = at(990);
    await whileLocked(busy, async () => {
      // #0 alone; then one batch: #1 waits 300 ms for the lock and is refused, #2 and #3 commit,
      // #4 only tries the lock; then #4 alone waits its own 300 ms. Were #4 to wait inside the
      // batch, #5 would be answered with it, not 300 ms before it.
      const times = [other, busy, other, other, busy, other];
      const { settled, stats, doneAt } = await burst(times.map((slot) => payload(ticketId, slot)));
      assert.deepEqual(stats, { batches: 1, batchedOrders: 5, largest: 5 });
      assert.deepEqual(
        settled.map((s) => (s.status === 'fulfilled' ? 'placed' : (s.reason as { code: string }).code)),
        ['placed', '55P03', 'placed', 'placed', '55P03', 'placed'],
      );
      assert.ok(doneAt[4]! - doneAt[5]! >= 250, `#5 was answered ${doneAt[4]! - doneAt[5]!} ms before #4`);
    });
  });

  test("an order's own failure runs it again alone: its error is the one it gets alone, the others commit", async () => {
    const before = await count(`select count(*) n from orders where reference like 'hand %'`);
    const { settled, stats } = await burst([payload(ticketId), payload(ticketId), payload(999_999), payload(ticketId)]);
    assert.deepEqual(stats, { batches: 1, batchedOrders: 3, largest: 3 });
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const err = (settled[2] as PromiseRejectedResult).reason as { code: string; constraint: string };
    assert.equal(err.code, '23503'); // the foreign key to tickets, as pg reports it for a single statement
    assert.equal(err.constraint, 'order_items_ticket_id_tickets_id_fk');
    assert.equal(await count(`select count(*) n from orders where reference like 'hand %'`), before + 3);
  });

  test('a server error of the whole call places every order alone', async () => {
    const before = await count(`select count(*) n from orders where reference like 'hand %'`);
    // Not JSON: the batch's one parameter fails to parse, so the call commits nothing.
    const { settled, stats } = await burst([payload(ticketId), payload(ticketId), '{"broken', payload(ticketId)]);
    assert.equal(stats.batches, 0);
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    assert.equal(((settled[2] as PromiseRejectedResult).reason as { code: string }).code, '22P02');
    assert.equal(await count(`select count(*) n from orders where reference like 'hand %'`), before + 3);
  });
});
