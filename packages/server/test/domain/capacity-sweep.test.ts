// The periodic sweep of expired holds and pending orders (sweepExpired.ts): it marks what already
// stopped counting as released, touches nothing that counts, and loses a race with a finalize
// that makes an expired-looking allocation permanent.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { sweepExpiredAllocations } from '../../src/domain/capacity/sweepExpired.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const pool = t.database.pool;
const ctx = systemCtx({ db, clock: t.clock, config: t.config });
const museumId = (await f.museum(db)).id;
const quotaId = (await f.quota(db, { museumId, capacity: 50 })).id;
const ticketId = (await f.ticket(db, { museumId, quotaIds: [quotaId] })).id;
const user = await t.token({ class: 'user' });
const day = f.localDate(6);
const slot = zonedInstant(day, 600, 'Europe/Berlin').toISOString();

const post = (url: string, payload: object) => t.request({ method: 'POST', url, token: user, payload });
const order = (quantity: number, finalize: boolean) =>
  post('/api/v4/orders', { items: [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: slot } }], finalize });
const capacity = async () =>
  (await t.request({ method: 'GET', url: `/api/v4/tickets/${ticketId}/capacity?date=${day}`, token: user })).body;
const rows = async () =>
  (await pool.query('select id, quantity, expires_at, released_at from capacity_allocations order by id')).rows as Array<{
    id: number;
    quantity: number;
    expires_at: Date | null;
    released_at: Date | null;
  }>;

test('expired holds and pending orders are marked released at their expiry; what counts is untouched', async () => {
  assert.equal((await order(3, true)).statusCode, 201); // permanent
  assert.equal((await order(2, false)).statusCode, 201); // pending: 30 minutes
  assert.equal((await post('/api/v4/reservations', { ticket_id: ticketId, quantity: 4, start_at: slot })).statusCode, 201); // hold: 15 minutes
  t.clock.advanceMinutes(40);
  assert.equal((await post('/api/v4/reservations', { ticket_id: ticketId, quantity: 1, start_at: slot })).statusCode, 201); // still live
  const availability = await capacity();
  const totals = (await pool.query('select * from capacity_totals')).rows;

  assert.equal(await sweepExpiredAllocations(ctx), 2);
  const after = await rows();
  assert.deepEqual(
    after.map((r) => [r.quantity, r.released_at?.getTime() ?? null]),
    [
      [3, null],
      [2, after[1]!.expires_at!.getTime()],
      [4, after[2]!.expires_at!.getTime()],
      [1, null],
    ],
  );
  assert.equal(await capacity(), availability, 'availability did not change: the swept rows no longer counted');
  assert.deepEqual((await pool.query('select * from capacity_totals')).rows, totals);
  assert.equal(await sweepExpiredAllocations(ctx), 0, 'a second run changes nothing');
});

test('a finalize that makes an expired-looking allocation permanent wins over a sweep racing it', async () => {
  const res = await order(1, false);
  assert.equal(res.statusCode, 201);
  t.clock.advanceMinutes(40);
  const [row] = (await pool.query('select a.id from capacity_allocations a join order_items i on i.id = a.order_item_id where i.order_id = $1', [res.json().order.id])).rows;
  // The finalize's write, not yet committed: the sweep meets the row locked and must re-check it.
  const finalize = new pg.Client({ connectionString: t.database.url });
  await finalize.connect();
  try {
    await finalize.query('begin');
    await finalize.query('update capacity_allocations set expires_at = null where id = $1', [row.id]);
    const sweep = sweepExpiredAllocations(ctx);
    for (let i = 0; i < 100; i++) {
      const waiting = await pool.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      if (waiting.rowCount) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await finalize.query('commit');
    await sweep;
  } finally {
    await finalize.end();
  }
  const [after] = (await pool.query('select expires_at, released_at from capacity_allocations where id = $1', [row.id])).rows;
  assert.deepEqual(after, { expires_at: null, released_at: null }, 'the finalized allocation still counts');
});
