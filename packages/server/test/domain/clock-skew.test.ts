// Two nodes whose clocks differ by 10 minutes, on one database: a hold made through one must not
// be lost through the other. Node B's clock runs ahead; holds last 4 minutes. Were B to decide by
// its own clock, it would count A's fresh hold as lapsed (and sell its places) and its sweep would
// release it. Running servers decide by the database's clock (DatabaseClock,
// src/domain/capacity/databaseClock.ts), so both nodes agree. The control run gives the nodes
// their own clocks and must see the hold lost, which shows the test catches the fault.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { sweepExpiredAllocations } from '../../src/domain/capacity/sweepExpired.ts';
import { DatabaseClock, databaseClock } from '../../src/domain/capacity/databaseClock.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { databaseNow } from '../../src/db/repositories/capacity.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const database = await freshDatabase();
const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const c of closers) await c();
  await database.drop();
});

const SKEW_MS = 10 * 60_000;
const config = loadConfig({
  ATRIUM_DATA_DIR: '/nonexistent', ATRIUM_HOLD_MINUTES: '4',
  ATRIUM_USER_RATE_LIMIT: '0', ATRIUM_PUBLIC_RATE_LIMIT: '0', ATRIUM_ANON_RATE_LIMIT: '0', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0',
  ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '0',
});
const museumId = (await f.museum(database.db)).id;
const token = (await createToken({ db: database.db, clock: { now: () => new Date() } }, { class: 'reseller', name: 'seller' })).token;

/** Node A holds the whole slot; node B then tries to book it and runs the sweep. */
async function twoNodes(clockA: Clock, clockB: Clock) {
  const q = await f.quota(database.db, { museumId, capacity: 4 });
  const ticketId = (await f.ticket(database.db, { museumId, quotaIds: [q.id] })).id;
  const startAt = zonedInstant(f.localDate(5), 600, 'Europe/Berlin').toISOString();
  const [a, b] = await Promise.all([clockA, clockB].map((clock) => buildApp({ database, config, clock, logger: false, ...TEST_SCHEMAS })));
  closers.push(() => a!.close(), () => b!.close());
  const hold = (app: typeof a, quantity: number) =>
    app!.inject({ method: 'POST', url: '/api/v4/reservations', headers: { authorization: `Bearer ${token}` }, payload: { ticket_id: ticketId, quantity, start_at: startAt } });
  const held = await hold(a, 4);
  assert.equal(held.statusCode, 201, held.body);
  const second = await hold(b, 1);
  const swept = await sweepExpiredAllocations(systemCtx({ db: database.db, clock: clockB, config }));
  const live = await database.pool.query(`select count(*)::int as n from capacity_allocations where resource_id = $1 and released_at is null`, [q.id]);
  return { second: second.statusCode === 201 ? 'booked' : second.json().code, swept, live: live.rows[0].n as number };
}

describe('clock skew between nodes', () => {
  test('a hold made through one node is kept by a node whose clock runs 10 minutes ahead', async () => {
    const a = await databaseClock(database.db);
    const b = await databaseClock(database.db, () => Date.now() + SKEW_MS);
    assert.ok(Math.abs(a.now().getTime() - b.now().getTime()) < 1_000, 'both follow the database');
    const r = await twoNodes(a, b);
    assert.deepEqual(r, { second: 'SLOT_SOLD_OUT', swept: 0, live: 1 });
  });

  test('control: with their own clocks, the node ahead sells the held places and sweeps the hold', async () => {
    const r = await twoNodes({ now: () => new Date() }, { now: () => new Date(Date.now() + SKEW_MS) });
    assert.equal(r.second, 'booked', 'the places A holds were sold again through B');
    assert.ok(r.swept >= 1, 'B swept A\'s hold');
  });

  // A busy process reads the database's answer late: here the first reading's answer is seen
  // 800 ms after it came (the local clock read after the query says so). Taking that round trip's
  // middle would put this node 400 ms behind the database: long enough to accept a token revoked
  // a moment ago, or to count a lapsed hold as live.
  test('a round trip slowed by a busy process does not set the offset', async () => {
    let reads = 0;
    const late = () => Date.now() + (++reads === 2 ? 800 : 0);
    const measure = async (clock: DatabaseClock) => {
      await clock.sync();
      const before = Date.now();
      const db = (await databaseNow(database.db)).getTime();
      return Math.abs(clock.now().getTime() - (db + (Date.now() - before) / 2));
    };
    const error = await measure(new DatabaseClock(database.db, late));
    assert.ok(error < 200, `the node follows the database to within ${error} ms`);

    // Control: one reading only (the first, slowed), as a single probe would take.
    reads = 0;
    assert.ok((await measure(new DatabaseClock(database.db, late, 1))) >= 200, 'a single slowed reading sets the clock off');
  });
});
