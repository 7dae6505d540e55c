// The client against the real server (in-process, real database), through the proxy without
// faults: typed resources, lists and paging, caching, typed errors, token hygiene.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  AtriumClient, MemoryStore, NotFoundError, ReservationExpiredError, SlotSoldOutError, UnauthorizedError,
} from '@atrium/client';
import * as f from '../../server/test/helpers/factories.ts';
import { clientEnv } from './helpers/env.ts';

const env = await clientEnv({ capacity: 4 });
after(() => env.close());

describe('AtriumClient against the real server', () => {
  test('whoami tests the token; a bad token is an UnauthorizedError and is not retried', async () => {
    assert.deepEqual(await env.client().whoami(), { access: 'reseller', museums: [env.museumId] });
    assert.deepEqual(await env.client({ token: undefined }).whoami(), { access: 'public', museums: [] });
    env.proxy.reset();
    const bad = env.client({ token: env.reseller.slice(0, -4) + 'zzzz' });
    await assert.rejects(bad.whoami(), (e) => e instanceof UnauthorizedError && e.status === 401 && e.attempts === 1);
    assert.equal(env.proxy.count('GET', /whoami$/), 1);
  });

  test('lists return unwrapped records with meta; the iterator stops at ceil(total_count / per_page)', async () => {
    const db = env.t.database.db;
    for (let i = 0; i < 4; i++) await f.ticket(db, { museumId: env.museumId, ticketType: 'normal', entryDuration: null });
    const c = env.client({ cache: false });
    const page = await c.tickets.list({ per_page: 2 });
    assert.equal(page.length, 2);
    assert.deepEqual(page.meta, { total_count: 5, page: 1, per_page: 2 });
    assert.equal(typeof page[0]!.price_cents, 'number');
    env.proxy.reset();
    const ids: number[] = [];
    for await (const t of c.tickets.all({ per_page: 2 })) ids.push(t.id);
    assert.equal(ids.length, 5);
    assert.equal(new Set(ids).size, 5);
    assert.equal(env.proxy.count('GET', /\/tickets$/), 3, 'pages 1..3 and no fourth request');
    const one = await c.tickets.get(env.ticketId);
    assert.equal(one.id, env.ticketId);
  });

  test('master data is cached, revalidated by ETag after maxAge, refreshed on demand; availability is always live', async () => {
    let now = Date.now();
    const store = new MemoryStore();
    const c = env.client({ cache: { store, maxAgeMs: 60_000 }, now: () => now });
    env.proxy.reset();
    const first = await c.tickets.list();
    const again = await c.tickets.list();
    assert.deepEqual(again, first);
    assert.equal(env.proxy.count('GET', /\/tickets$/), 1, 'the second read came from the cache');

    now += 61_000;
    await c.tickets.list();
    const revalidation = env.proxy.seen.filter((s) => /\/tickets$/.test(s.url.split('?')[0]!)).at(-1)!;
    assert.ok(revalidation.headers['if-none-match'], 'stale entries are revalidated with If-None-Match');
    assert.equal(revalidation.status, 304);

    await c.tickets.list(undefined, { refresh: true });
    assert.equal(env.proxy.count('GET', /\/tickets$/), 3, 'refresh: true always asks the server');
    await c.clearCache();
    assert.equal(store.size, 0);

    for (let i = 0; i < 2; i++) await c.availability.ticketCapacity(env.ticketId, { date: env.day });
    assert.equal(env.proxy.count('GET', /\/capacity$/), 2, 'availability is never cached');
    // Two tokens never share a cached answer (answers are context-aware, spec 1).
    await c.tickets.list();
    await env.client({ cache: { store }, token: undefined }).tickets.list();
    assert.equal(store.size, 2);
  });

  test('customers: create by foreign_id, update with PUT by foreign_id, read back', async () => {
    const c = env.client();
    const fid = `cust-${Date.now()}`;
    const created = await c.customers.create({ foreign_id: fid, name: 'Ada', surname: 'Lovelace', email: 'ada@example.org' });
    assert.equal(created.foreign_id, fid);
    const updated = await c.customers.update({ foreign_id: fid, phone: '+49 30 123456' });
    assert.equal(updated.id, created.id);
    assert.equal(updated.phone, '+49 30 123456');
    assert.equal((await c.customers.get(fid)).id, created.id);
    assert.equal((await c.customers.findByForeignId(fid))?.id, created.id);
    await assert.rejects(c.customers.update({ foreign_id: 'nobody', name: 'X' }), NotFoundError);
  });

  test('reservation then order; sold out and expired are distinct typed errors', async () => {
    const c = env.client();
    const slots = await c.availability.ticketCapacity(env.ticketId, { date: env.day });
    assert.equal(Object.values(slots as Record<string, number>)[0], 4);
    const hold = await c.reservations.create({ ticket_id: env.ticketId, quantity: 3, start_at: env.slot(600) });
    assert.equal(hold.quantity, 3);
    const order = await c.orders.create({
      finalize: false,
      items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 3, time: env.slot(600), reservations: [hold.reservation_token] } }],
    });
    assert.equal(order.status, 'pending');
    assert.match(order.foreign_id ?? '', /^[0-9a-f-]{36}$/, 'a foreign_id is generated when none is given');
    await assert.rejects(c.reservations.create({ ticket_id: env.ticketId, quantity: 2, start_at: env.slot(600) }), SlotSoldOutError);

    const short = await c.reservations.create({ ticket_id: env.ticketId, quantity: 1, start_at: env.slot(630) });
    env.t.clock.advance(16 * 60_000);
    await assert.rejects(
      c.orders.create({ finalize: false, items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 1, time: env.slot(630), reservations: [short.reservation_token] } }] }),
      ReservationExpiredError,
    );
    const finalized = await c.orders.finalize(order.id);
    assert.equal(finalized.status, 'finalized');
    assert.equal((await c.orders.get(order.token)).id, order.id);
    assert.ok(!env.logText().includes(short.reservation_token), 'reservation tokens are masked in logs');
  });

  test('refuses to run in a browser context with a token; fine without one', () => {
    const g = globalThis as Record<string, unknown>;
    g.window = {};
    g.document = {};
    try {
      assert.throws(() => new AtriumClient({ baseUrl: env.proxy.url, token: env.reseller }), /browser.*spec 5\.7/s);
      assert.ok(new AtriumClient({ baseUrl: env.proxy.url }));
    } finally {
      delete g.window;
      delete g.document;
    }
    assert.throws(() => new AtriumClient({ baseUrl: env.proxy.url, maxAttempts: 9 }), /1 to 5/);
  });
});
