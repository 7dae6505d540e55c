// Closures with cancel_orders (docs/api-contract.md §13): exactly the live items in the closed period are
// cancelled, through the order-cancellation verb (capacity back exactly once, barcodes void,
// order.cancelled recorded), and bookings racing the closure sell nothing on the closed day
// (with a control run that removes the race guard and shows the test catches what it guards).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { isoInZone, zonedInstant } from '../../src/domain/time.ts';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';
import { raceUntilFault } from '../helpers/control.ts';

const Z = 'Europe/Berlin';
const t = await testApp({ now: '2026-03-01T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
const staff = await t.token({ class: 'user' });
const reseller = await t.token({ class: 'reseller' });
const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) => {
  const res = await t.request({ method, url: `/api/v4${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
};
const m = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, capacity: 500 });
const T = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] }); // 10:00-17:00 every 30 minutes
const at = (date: string, minutes: number) => isoInZone(zonedInstant(date, minutes, Z), Z);
const order = (items: Array<[string, number]>, finalize: boolean) =>
  call('POST', '/orders', staff, { items: items.map(([date, min]) => ({ type: 'Ticket', attributes: { id: T.id, quantity: 2, time: at(date, min) } })), finalize });

async function rows<R>(query: ReturnType<typeof sql>): Promise<R[]> {
  return (await db.execute(query)).rows as R[];
}
const liveItemsOn = (date: string) =>
  rows<{ n: number }>(sql`select count(*)::int n from order_items i join orders o on o.id = i.order_id
    where i.status = 'active' and (o.status = 'finalized' or (o.status = 'pending' and o.expires_at > ${t.clock.now().toISOString()}))
      and (i.start_at at time zone ${Z})::date = ${date}::date`).then((r) => r[0]!.n);

test('cancel_orders over a day with 50 live orders cancels exactly those items, capacity back once', async () => {
  const D = '2026-06-02';
  const next = '2026-06-03';
  const ids: number[] = [];
  for (let i = 0; i < 49; i++) {
    const r = await order([[D, 600 + (i % 14) * 30]], i % 2 === 0);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids.push(r.body.order.id);
  }
  const mixed = await order([[D, 600], [next, 600]], true); // one item in the period, one after it
  ids.push(mixed.body.order.id);
  const untouched = await order([[next, 630]], true);
  const gone = await order([[D, 660]], true);
  await call('POST', `/orders/${gone.body.order.id}/cancellations`, staff, {}); // already cancelled: not live
  const capNextBefore = (await call('GET', `/tickets/${T.id}/capacity?date=${next}`)).body.data;

  const r = await call('POST', '/closures', staff, { closure: { museum_id: m.id, start_date: D, reason: 'Burst pipe', cancel_orders: true } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(r.body.affected, { orders: 50, order_ids: [...ids].sort((a, b) => a - b), visitors: 100 });
  assert.equal(r.body.closure.reason, 'Burst pipe');
  assert.equal(await liveItemsOn(D), 0);
  assert.equal(await liveItemsOn(next), 2);
  const mixedNow = (await call('GET', `/orders/${mixed.body.order.id}`, staff)).body.order;
  assert.deepEqual(mixedNow.items.map((i: { status: string }) => i.status), ['cancelled', 'active']);
  assert.equal(mixedNow.status, 'finalized');
  assert.equal((await call('GET', `/orders/${untouched.body.order.id}`, staff)).body.order.status, 'finalized');
  // Capacity: nothing live left on the day, totals not below zero; the next day unchanged.
  const [alloc] = await rows<{ live: number; neg: number }>(sql`select
    (select count(*)::int from capacity_allocations where released_at is null and (slot_start at time zone ${Z})::date = ${D}::date) live,
    (select count(*)::int from capacity_totals where permanent < 0) neg`);
  assert.deepEqual(alloc, { live: 0, neg: 0 });
  assert.deepEqual((await call('GET', `/tickets/${T.id}/capacity?date=${next}`)).body.data, capNextBefore);
  // Barcodes of the cancelled items are void; the kept item's are valid.
  const [codes] = await rows<{ bad: number; kept: number }>(sql`select
    (select count(*)::int from barcodes b join order_items i on i.id = b.order_item_id where i.status = 'cancelled' and b.status <> 'void') bad,
    (select count(*)::int from barcodes b join order_items i on i.id = b.order_item_id where i.status = 'active' and b.status = 'void') kept`);
  assert.deepEqual(codes, { bad: 0, kept: 0 });
  // Events: one closure.created; one order.cancelled per cancelled order (from the cancel verb).
  const [ev] = await rows<{ closures: number; cancels: number }>(sql`select
    (select count(*)::int from outbox_events where type = 'closure.created') closures,
    (select count(*)::int from outbox_events where type = 'order.cancelled') cancels`);
  assert.deepEqual(ev, { closures: 1, cancels: 51 }); // 50 by the closure, 1 by the earlier cancellation
  // Reopened: every slot of the day is back to exactly its capacity (released once, not twice).
  assert.equal((await call('DELETE', `/closures/${r.body.closure.id}`, staff)).status, 204);
  const reopened = (await call('GET', `/tickets/${T.id}/capacity?date=${D}`)).body.data;
  assert.equal(Object.keys(reopened).length, 15);
  assert.ok(Object.values(reopened).every((n) => n === 500), JSON.stringify(reopened));
});

test('without cancel_orders live orders stay and are listed; GET shows the same report', async () => {
  const D = '2026-06-04';
  const a = await order([[D, 720]], true);
  const r = await call('POST', '/closures', staff, { museum_id: m.id, start_date: D, start_time: '12:00', end_time: '13:00' });
  assert.deepEqual(r.body.affected, { orders: 1, order_ids: [a.body.order.id], visitors: 2 });
  assert.equal(await liveItemsOn(D), 1);
  assert.deepEqual((await call('GET', `/closures/${r.body.closure.id}`, staff)).body.affected, r.body.affected);
  const list = await call('GET', `/closures?by_museum_ids[]=${m.id}&from=${D}&to=${D}`, staff);
  assert.deepEqual(list.body.closures.map((c: { id: number }) => c.id), [r.body.closure.id]);
  assert.equal((await call('GET', '/closures', reseller)).status, 403);
});

/** Bookings on `date` from several workers while a closure of that day is created. */
async function race(date: string): Promise<{ survivors: number; created: number; closed: number }> {
  let stop = false;
  const outcomes: number[] = [];
  const worker = async (w: number) => {
    for (let i = 0; i < 200 && !stop; i++) {
      const r = await call('POST', '/orders', reseller, { finalize: false, items: [{ type: 'Ticket', attributes: { id: T.id, quantity: 1, time: at(date, 600 + ((w + i) % 14) * 30) } }] });
      outcomes.push(r.status === 201 ? 1 : r.body.code === 'CLOSED' ? 0 : -1);
    }
  };
  const deadline = setTimeout(() => (stop = true), 60_000);
  const workers = Array.from({ length: 4 }, (_, w) => worker(w));
  const until = async (n: number) => {
    for (let i = 0; i < 6_000 && outcomes.length < n && !stop; i++) await new Promise((r) => setTimeout(r, 5));
  };
  await until(8);
  const c = await call('POST', '/closures', staff, { museum_id: m.id, start_date: date, cancel_orders: true });
  assert.equal(c.status, 201, JSON.stringify(c.body));
  await until(outcomes.length + 8);
  stop = true;
  await Promise.all(workers);
  clearTimeout(deadline);
  assert.ok(!outcomes.includes(-1), 'every booking was placed or refused as CLOSED');
  return { survivors: await liveItemsOn(date), created: outcomes.filter((o) => o === 1).length, closed: outcomes.filter((o) => o === 0).length };
}

const GUARDS = ['order_items', 'reservations'];

test('control: without the race guard, bookings racing the closure survive on the closed day', async () => {
  for (const table of GUARDS) await db.execute(sql.raw(`drop trigger ${table}_closure_guard on ${table}`));
  try {
    // Up to three races, each on a day of its own (test/helpers/control.ts).
    const runs = await raceUntilFault(['2026-06-09', '2026-06-16', '2026-06-23'], race, (r) => r.survivors > 0);
    assert.ok(runs.at(-1)!.survivors > 0, `the control run should let a racing booking through (${JSON.stringify(runs)})`);
  } finally {
    for (const table of GUARDS) {
      await db.execute(sql.raw(`create trigger ${table}_closure_guard before insert on ${table} for each row execute function atrium_closure_guard()`));
    }
  }
});

test('a booking race on the day being closed sells nothing there', async () => {
  const r = await race('2026-06-11');
  assert.equal(r.survivors, 0, JSON.stringify(r));
  assert.ok(r.created > 0 && r.closed > 0, `bookings were placed before and refused after (${JSON.stringify(r)})`);
});
