// Two real `atrium serve` processes on one database, no balancer: requests alternate between
// them. Bookings never oversell across processes; a catalogue change through one node is seen by
// the other's in-process cache within a second (NOTIFY); a revoked token is refused by both
// within a second; with Redis, a reseller's rate budget is shared.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { revokeToken } from '../../src/domain/accounts/revokeToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { bearer, startNode, type Answer, type Node } from './nodes.ts';

const db = await freshDatabase();
const clockCtx = { db: db.db, clock: systemClock };
const nodes: Node[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await db.drop();
});

const museumId = (await f.museum(db.db)).id;
const CAPACITY = 60;
const quota = await f.quota(db.db, { museumId, capacity: CAPACITY });
const ticket = await f.ticket(db.db, { museumId, quotaIds: [quota.id], title: { de: 'Eintritt', en: 'Admission' } });
const token = async (o: Parameters<typeof createToken>[1]) => createToken(clockCtx, o);
const reseller = (await token({ class: 'reseller', name: 'partner' })).token;
const staff = (await token({ class: 'user', name: 'staff', rights: ['catalog:write'] })).token;

// With TEST_REDIS_URL both nodes count rate limits in Redis (the last test checks it).
const redisUrl = process.env.TEST_REDIS_URL;
const prefix = `atrium-mn-${process.pid}-${randomBytes(4).toString('hex')}:`;
const env: Record<string, string> = { DATABASE_URL: db.url, ...(redisUrl ? { REDIS_URL: redisUrl, ATRIUM_REDIS_PREFIX: prefix } : {}) };
let a: Node;
let b: Node;
before(async () => {
  [a, b] = await Promise.all([startNode(env), startNode(env)]);
  nodes.push(a, b);
});

describe('two atrium serve processes on one database', () => {
  test('≥200 parallel order creates for the last 50 places, alternating nodes: never oversold, every 201 stored', async () => {
    const time = zonedInstant(f.localDate(7), 600, 'Europe/Berlin').toISOString();
    const order = (n: Node, quantity: number) =>
      n.send('POST', '/api/v4/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticket.id, quantity, time } }] }, bearer(reseller));
    // One order through each node first: both have their catalogue rows in memory before the
    // burst, so neither is still warming up while the other sells the last places.
    assert.equal((await order(a, 9)).status, 201);
    assert.equal((await order(b, 1)).status, 201);
    const wanted = Array.from({ length: 220 }, (_, i) => ({ node: i % 2 ? b : a, quantity: 1 + (i % 2) }));
    const results = await Promise.all(wanted.map((w) => order(w.node, w.quantity)));
    const created = results.flatMap((r, i) => (r.status === 201 ? [{ id: r.body.order.id as number, quantity: wanted[i]!.quantity }] : []));
    const refusals = results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body?.code}`);
    const { rows } = await db.db.execute<{ n: number; orders: number }>(sql`select coalesce(sum(quantity), 0)::int n,
      count(distinct order_id)::int orders from order_items where ticket_id = ${ticket.id} and start_at = ${time} and status = 'active'`);
    assert.ok(rows[0]!.n <= CAPACITY, `sold ${rows[0]!.n} of ${CAPACITY}`);
    assert.equal(rows[0]!.n, 10 + created.reduce((s, c) => s + c.quantity, 0), `every 201 is stored; refusals ${refusals.join(', ')}`);
    assert.equal(rows[0]!.orders, 2 + created.length);
    // Both nodes sold some of the places, and refusals are clean business answers, never a 500.
    for (const side of [0, 1]) assert.ok(results.some((r, i) => i % 2 === side && r.status === 201), `node ${side} sold nothing`);
    for (const r of refusals) assert.match(r, /^(422|409|503) [A-Z_]+$/);
  });

  test('a catalogue change through one node reaches the other node within 1 s; ETags change', async () => {
    const list = (n: Node, headers = {}) => n.get('/api/v4/tickets?locale=en', headers);
    const title = (r: Answer) => r.body.tickets.find((t: { id: number }) => t.id === ticket.id)?.title;
    // Warm B's cache: the second read is served from memory, so what follows tests invalidation.
    await list(b);
    const warm = await list(b);
    assert.equal(warm.headers.get('x-atrium-cache'), 'hit');
    assert.equal(title(warm), 'Admission');
    const oldTag = warm.headers.get('etag')!;
    assert.equal((await list(b, { 'if-none-match': oldTag })).status, 304);

    const put = await a.send('PUT', `/api/v4/tickets/${ticket.id}`, { title: { de: 'Eintritt', en: 'Admission (changed)' } }, bearer(staff));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const t0 = Date.now();
    let seen: Answer;
    do seen = await list(b);
    while (title(seen) !== 'Admission (changed)' && Date.now() - t0 < 3_000);
    const ms = Date.now() - t0;
    assert.equal(title(seen), 'Admission (changed)');
    assert.ok(ms <= 1_000, `visible on the other node after ${ms} ms`);
    assert.notEqual(seen.headers.get('etag'), oldTag);
    assert.equal((await list(b, { 'if-none-match': oldTag })).status, 200);
    // The writing node reads its own write at once (its cache is cleared by the write itself).
    assert.equal(title(await list(a)), 'Admission (changed)');
  });

  test('a capacity change through one node binds availability and bookings on the other within 1 s', async () => {
    // Node B keeps catalogue rows (quotas, overrides) in memory for bookings; a change through A
    // must reach it like any catalogue change, or B would sell against the old capacity.
    const date = f.localDate(9);
    const time = zonedInstant(date, 600, 'Europe/Berlin').toISOString();
    const order = (n: Node, quantity: number) =>
      n.send('POST', '/api/v4/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticket.id, quantity, time } }] }, bearer(reseller));
    const left = async (n: Node) => {
      const r = await n.get(`/api/v4/tickets/${ticket.id}/capacity?date=${date}`, bearer(reseller));
      return Object.entries(r.body.data as Record<string, number>).find(([k]) => Date.parse(k) === Date.parse(time))?.[1];
    };
    assert.equal((await order(b, 1)).status, 201);
    assert.equal(await left(b), CAPACITY - 1);
    const put = await a.send('PUT', `/api/v4/quotas/${quota.id}/overrides/${date}`, { override: { capacity: 3 } }, bearer(staff));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const t0 = Date.now();
    let seen: number | undefined;
    do seen = await left(b);
    while (seen !== 2 && Date.now() - t0 < 3_000);
    const ms = Date.now() - t0;
    assert.equal(seen, 2, 'B shows the new capacity');
    assert.ok(ms <= 1_000, `visible on the other node after ${ms} ms`);
    const over = await order(b, 3);
    assert.equal(over.status, 422);
    assert.equal(over.body.code, 'SLOT_SOLD_OUT');
    assert.equal((await order(b, 2)).status, 201);
    const { rows } = await db.db.execute<{ n: number }>(
      sql`select coalesce(sum(quantity), 0)::int n from order_items where ticket_id = ${ticket.id} and start_at = ${time} and status = 'active'`,
    );
    assert.equal(rows[0]!.n, 3, 'sold exactly the new capacity');
  });

  test('a revoked token is refused by both nodes within a second', async () => {
    const created = await token({ class: 'reseller', name: 'leaky' });
    const h = bearer(created.token);
    // Resolve it on both nodes a few times so both hold it in their token caches.
    for (let i = 0; i < 3; i++) for (const n of [a, b]) assert.equal((await n.get('/api/v4/whoami', h)).status, 200);
    // Revoked from a third process (as `atrium token revoke` does): both nodes learn it through
    // NOTIFY atrium_tokens, which arrives within milliseconds but is not synchronous with the
    // revoking commit, so each node is polled for up to a second.
    await revokeToken(clockCtx, { tokenId: created.tokenId });
    const refusedWithin = async (n: Node) => {
      const deadline = Date.now() + 1000;
      for (;;) {
        const r = await n.get('/api/v4/whoami', h);
        if (r.status === 401 || Date.now() > deadline) return r;
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    const [ra, rb] = await Promise.all([refusedWithin(a), refusedWithin(b)]);
    assert.deepEqual([ra.status, rb.status], [401, 401]);
    assert.match(rb.body.error, /revoked/);
    // Other tokens are unaffected.
    assert.equal((await b.get('/api/v4/whoami', bearer(reseller))).status, 200);
  });
});

test('with Redis, a reseller budget is shared by two processes', { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, async () => {
  const admin = new Redis(redisUrl!);
  try {
    // The account's own limit (10/min); the nodes' default is raised for the other tests.
    const h = bearer((await token({ class: 'reseller', name: 'budget', rateLimitPerMinute: 10 })).token);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await (i % 2 ? b : a).get('/api/v4/whoami', h)).status);
    assert.equal(statuses.filter((s) => s === 200).length, 10, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 20);
  } finally {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    admin.disconnect();
  }
});
