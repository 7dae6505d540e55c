// "Never oversell" across protocols: OCTO reserves and go~mus-API orders race over real HTTP for
// the last places of one slot. With the capacity locks the ledger never holds more than the
// capacity, every OCTO refusal is UNPROCESSABLE_ENTITY and every go~mus refusal a 422. The
// control run (locks disabled) must oversell at least once: the test can see what it guards.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { capacityAllocations } from '../../src/db/schema/index.ts';
import * as f from '../helpers/factories.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

const PARALLEL = 120;
const LAST = 30;
const CAPACITY = 500;
const CONTROL_ROUNDS = 10;

interface Setup { t: TestApp; base: string; token: string; ticketId: number }

async function setup(testing?: { disableCapacityLocks: boolean }): Promise<Setup> {
  const t = await testApp({ now: '2026-05-04T06:00:00Z', ...(testing ? { testing } : {}) });
  const db = t.database.db;
  const m = await f.museum(db);
  const q = await f.quota(db, { museumId: m.id, capacity: CAPACITY });
  const ticket = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], maxPersons: CAPACITY });
  (t.database.pool.options as { connectionTimeoutMillis: number }).connectionTimeoutMillis = 60_000;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  return { t, base: `http://127.0.0.1:${addr.port}`, token: await t.token({ class: 'reseller', rateLimitPerMinute: 1_000_000 }), ticketId: ticket.id };
}

async function post(s: Setup, url: string, body: unknown) {
  const res = await fetch(`${s.base}${url}`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const gomusOrder = (s: Setup, date: string, quantity: number) =>
  post(s, '/api/v4/orders', { finalize: true, items: [{ type: 'Ticket', attributes: { id: s.ticketId, quantity, time: `${date}T10:00:00+02:00` } }] });
const octoReserve = (s: Setup, date: string, quantity: number) =>
  post(s, '/octo/bookings', { uuid: randomUUID(), productId: `ticket-${s.ticketId}`, optionId: 'DEFAULT', availabilityId: `${date}T10:00`, unitItems: Array.from({ length: quantity }, () => ({ unitId: 'adult' })) });

async function race(s: Setup, date: string) {
  const pre = await gomusOrder(s, date, CAPACITY - LAST);
  assert.equal(pre.status, 201, JSON.stringify(pre.body));
  const results = await Promise.all(
    Array.from({ length: PARALLEL }, (_, i) => (i % 2 ? octoReserve(s, date, 1 + (i % 3)) : gomusOrder(s, date, 1 + (i % 3))).then((r) => ({ ...r, quantity: 1 + (i % 3), octo: i % 2 === 1 }))),
  );
  const won = results.filter((r) => r.status === 200 || r.status === 201);
  return { results, won, granted: won.reduce((n, r) => n + r.quantity, 0) };
}

async function held(s: Setup, date: string) {
  const [r] = await s.t.database.db
    .select({ n: sql<number>`coalesce(sum(${capacityAllocations.quantity}), 0)::int` })
    .from(capacityAllocations)
    .where(and(eq(capacityAllocations.slotStart, new Date(`${date}T10:00:00+02:00`)), isNull(capacityAllocations.releasedAt)));
  return r!.n;
}

let locked: Setup;
let control: Setup;
before(async () => {
  [locked, control] = await Promise.all([setup(), setup({ disableCapacityLocks: true })]);
});
after(async () => {
  await locked?.t.close();
  await control?.t.close();
});

test(`with locks: OCTO and go~mus-API bookings for the last ${LAST} places never oversell`, async () => {
  const { results, won, granted } = await race(locked, '2026-05-06');
  assert.ok(granted <= LAST, `granted ${granted} > ${LAST}`);
  assert.equal(await held(locked, '2026-05-06'), CAPACITY - LAST + granted, 'the ledger holds exactly what was granted');
  assert.ok(won.some((r) => r.octo) && won.some((r) => !r.octo), 'both protocols sold');
  for (const r of results.filter((x) => x.status !== 200 && x.status !== 201)) {
    if (r.octo) assert.deepEqual([r.status, r.body.error], [400, 'UNPROCESSABLE_ENTITY'], JSON.stringify(r.body));
    else assert.equal(r.status, 422, JSON.stringify(r.body));
  }
});

test('control: the same race without locks oversells', async () => {
  let oversold = 0;
  for (let rep = 0; rep < CONTROL_ROUNDS && oversold === 0; rep++) {
    const date = `2026-05-${String(10 + rep).padStart(2, '0')}`;
    await race(control, date);
    if ((await held(control, date)) > CAPACITY) oversold += 1;
  }
  assert.ok(oversold > 0, 'the control run never oversold: the race is not exercised');
});
