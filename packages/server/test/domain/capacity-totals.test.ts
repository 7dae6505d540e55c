// The running totals of permanent allocations (capacity_totals, migration 0009, ADR 0011) must
// always equal the sum they replace: for every quota slot and event date, the quantity of its
// allocations that are not released and have no expiry. A seeded random walk through the API
// (orders pending and finalized, finalize, cancel whole or one item, holds, orders consuming
// holds, expiry by the clock) compares the two after every step; then the triggers are driven
// directly for the changes the API never makes (a counted row's quantity, slot, deletion).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { zonedInstant } from '../../src/domain/time.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp({ now: new Date() });
after(() => t.close());
const db = t.database.db;
const museumId = (await f.museum(db)).id;
const quotaId = (await f.quota(db, { museumId, capacity: 40 })).id;
const ticketA = (await f.ticket(db, { museumId, quotaIds: [quotaId] })).id;
const ticketB = (await f.ticket(db, { museumId, quotaIds: [quotaId], priceCents: 900 })).id;
const eventId = (await f.event(db, { museumId })).id;
const day = f.localDate(9);
const dateId = (await f.eventDate(db, { eventId, startAt: zonedInstant(day, 660, 'Europe/Berlin'), seatsMax: 30 })).id;
const user = await t.token({ class: 'user' });
const slots = [600, 630, 660].map((m) => zonedInstant(day, m, 'Europe/Berlin').toISOString());

/** Rows where the running total and the sum it replaces disagree (none, when all is well). */
async function mismatches() {
  const r = await t.database.pool.query(`
    with summed as (
      select resource, resource_id, slot_start, sum(quantity)::int as n from capacity_allocations
       where resource <> 'tour' and released_at is null and expires_at is null group by 1, 2, 3)
    select coalesce(s.resource, k.resource) resource, coalesce(s.resource_id, k.resource_id) resource_id,
           coalesce(s.slot_start, k.slot_start) slot_start, coalesce(s.n, 0) summed, coalesce(k.permanent, 0) total
      from summed s full join capacity_totals k using (resource, resource_id, slot_start)
     where coalesce(s.n, 0) <> coalesce(k.permanent, 0)`);
  return r.rows;
}

// mulberry32: the walk is the same on every run (change SEED to explore).
const SEED = 20261122;
let state = SEED;
const rand = () => {
  state = (state + 0x6d2b79f5) | 0;
  let x = Math.imul(state ^ (state >>> 15), 1 | state);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;

const post = (url: string, payload: object) => t.request({ method: 'POST', url, token: user, payload });

test('capacity_totals equals the sum of permanent allocations through a random walk of 150 API steps', async () => {
  const orders: Array<{ id: number; items: number[] }> = [];
  const holds: string[] = [];
  const done: Record<string, number> = {};
  const item = () =>
    rand() < 0.25
      ? { type: 'Event', attributes: { id: dateId, quantity: 1 + Math.floor(rand() * 2) } }
      : { type: 'Ticket', attributes: { id: pick([ticketA, ticketB]), quantity: 1 + Math.floor(rand() * 3), time: pick(slots) } };
  for (let step = 0; step < 150; step++) {
    const op = pick(['order', 'order', 'finalize', 'cancel', 'cancel-item', 'hold', 'hold', 'order-hold', 'order-hold', 'release', 'time']);
    let status = 0;
    if (op === 'order') {
      const res = await post('/api/v4/orders', { items: rand() < 0.3 ? [item(), item()] : [item()], finalize: rand() < 0.5 });
      status = res.statusCode;
      if (status === 201) orders.push({ id: res.json().order.id, items: res.json().order.items.map((i: { id: number }) => i.id) });
    } else if ((op === 'finalize' || op === 'cancel' || op === 'cancel-item') && orders.length) {
      const o = pick(orders);
      const res =
        op === 'finalize'
          ? await post(`/api/v4/orders/${o.id}/finalize`, {})
          : await post(`/api/v4/orders/${o.id}/cancellations`, op === 'cancel' ? {} : { item_ids: [pick(o.items)] });
      status = res.statusCode;
    } else if (op === 'hold') {
      const res = await post('/api/v4/reservations', { ticket_id: ticketA, quantity: 1 + Math.floor(rand() * 2), start_at: pick(slots) });
      status = res.statusCode;
      if (status === 201) holds.push(res.json().reservation.reservation_token);
    } else if ((op === 'order-hold' || op === 'release') && holds.length) {
      const token = holds.pop()!; // the newest: most likely still valid
      if (op === 'release') {
        status = (await t.request({ method: 'DELETE', url: `/api/v4/reservations/${token}`, token: user })).statusCode;
      } else {
        const hold = (await t.database.pool.query('select quantity, start_at from reservations where token = $1', [token])).rows[0];
        const res = await post('/api/v4/orders', {
          items: [{ type: 'Ticket', attributes: { id: ticketA, quantity: hold.quantity, time: hold.start_at.toISOString(), reservations: [token] } }],
          finalize: rand() < 0.5,
        });
        status = res.statusCode;
        if (status === 201) orders.push({ id: res.json().order.id, items: res.json().order.items.map((i: { id: number }) => i.id) });
      }
    } else if (op === 'time') {
      t.clock.advance(rand() < 0.5 ? 20 * 60_000 : 40 * 60_000); // holds (15 min) and pending orders (30 min) expire
      status = 1;
    }
    if (status >= 500) assert.fail(`step ${step} ${op}: ${status}`);
    if (status >= 200 && status < 300) done[op] = (done[op] ?? 0) + 1;
    assert.deepEqual(await mismatches(), [], `after step ${step} (${op}, ${status})`);
  }
  // The walk did reach every kind of change (else a different SEED is needed).
  for (const op of ['order', 'finalize', 'cancel', 'cancel-item', 'hold', 'order-hold', 'release']) {
    assert.ok((done[op] ?? 0) > 0, `no successful ${op} in the walk: ${JSON.stringify(done)}`);
  }
  const counted = await t.database.pool.query('select count(*)::int n from capacity_totals where permanent > 0');
  assert.ok(counted.rows[0].n > 0, 'some totals are non-zero');
});

test('the triggers follow changes the API never makes: quantity, slot, deletion of a counted row', async () => {
  const pool = t.database.pool;
  const row = (await pool.query(`select id from capacity_allocations where released_at is null and expires_at is null and resource = 'quota' limit 1`)).rows[0];
  assert.ok(row, 'the walk left a permanent allocation');
  await pool.query('update capacity_allocations set quantity = quantity + 2 where id = $1', [row.id]);
  assert.deepEqual(await mismatches(), []);
  await pool.query(`update capacity_allocations set slot_start = slot_start + interval '1 day' where id = $1`, [row.id]);
  assert.deepEqual(await mismatches(), []);
  await pool.query('update capacity_allocations set expires_at = now() where id = $1', [row.id]);
  assert.deepEqual(await mismatches(), []);
  await pool.query('update capacity_allocations set expires_at = null where id = $1', [row.id]);
  assert.deepEqual(await mismatches(), []);
  await pool.query('update capacity_allocations set order_item_id = null, reservation_id = null where id = $1', [row.id]);
  await pool.query('delete from capacity_allocations where id = $1', [row.id]);
  assert.deepEqual(await mismatches(), []);
});
