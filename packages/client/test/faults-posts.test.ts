// Safe POSTs through the fault-injecting proxy (spec 7.4): whatever happens to the answer, no
// order is ever created twice; the client looks the order up by foreign_id and resends only when
// it is absent; reservations are recreated, never looked up; CAPACITY_BUSY is retried once.
import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { CapacityBusyError, OutcomeUnknownError, ServerError, UnprocessableError } from '@atrium/client';
import { orders, reservations } from '../../server/src/db/schema/index.ts';
import { clientEnv } from './helpers/env.ts';

const env = await clientEnv({ capacity: 1000 });
after(() => env.close());
beforeEach(() => env.proxy.reset());
const db = env.t.database.db;
const ORDERS = /\/api\/v4\/orders$/;
const RES = /\/api\/v4\/reservations$/;
const status = (s: number, body: object = { error: `injected ${s}`, code: 'X', request_id: 'r' }) => ({ kind: 'status' as const, status: s, body });
const item = (min = 600, quantity = 1) => ({ type: 'Ticket' as const, attributes: { id: env.ticketId, quantity, time: env.slot(min) } });
const ordersWith = async (fid: string) => (await db.select({ n: count() }).from(orders).where(eq(orders.foreignId, fid)))[0]!.n;

describe('POST /orders never creates a duplicate', () => {
  test('answer lost after the commit: the order is found by foreign_id, not sent again', async () => {
    env.proxy.inject('POST', ORDERS, { kind: 'drop-after' });
    const o = await env.client().orders.create({ finalize: false, foreign_id: 'drop-1', items: [item()] });
    assert.equal(o.foreign_id, 'drop-1');
    assert.equal(await ordersWith('drop-1'), 1);
    assert.equal(env.proxy.count('POST', ORDERS), 1);
    assert.equal(env.proxy.seen.filter((s) => s.method === 'GET' && s.url.includes('foreign_id=drop-1')).length, 1);
  });

  test('502 before the server saw it: the lookup finds nothing, so the order is sent again, once', async () => {
    env.proxy.inject('POST', ORDERS, status(502));
    const o = await env.client().orders.create({ finalize: false, foreign_id: 'gw-1', items: [item()] });
    assert.equal(o.foreign_id, 'gw-1');
    assert.equal(await ordersWith('gw-1'), 1);
    assert.equal(env.proxy.count('POST', ORDERS), 2);
  });

  test('504 after the commit, and a timeout while the server commits: found by lookup', async () => {
    env.proxy.inject('POST', ORDERS, { kind: 'status-after', status: 504 });
    await env.client().orders.create({ finalize: false, foreign_id: 'gw-2', items: [item()] });
    env.proxy.inject('POST', ORDERS, { kind: 'delay', ms: 800 });
    const o = await env.client({ timeoutMs: 300 }).orders.create({ finalize: false, items: [item()] });
    assert.equal(await ordersWith('gw-2'), 1);
    assert.equal(await ordersWith(o.foreign_id!), 1);
    assert.equal(env.proxy.count('POST', ORDERS), 2);
  });

  test('the lookup failing too: the client waits and looks again, it never resends blindly', async () => {
    env.proxy.inject('POST', ORDERS, { kind: 'drop-after' });
    env.proxy.inject('GET', ORDERS, status(503), { kind: 'drop-after' });
    await env.client().orders.create({ finalize: false, foreign_id: 'lk-1', items: [item()] });
    assert.equal(await ordersWith('lk-1'), 1);
    assert.equal(env.proxy.count('POST', ORDERS), 1);
    assert.equal(env.proxy.count('GET', ORDERS), 3);
  });

  test('lasting 503: attempts stop at the bound with a typed error and nothing created', async () => {
    env.proxy.inject('POST', ORDERS, ...Array.from({ length: 10 }, () => status(503)));
    await assert.rejects(env.client({ maxAttempts: 3 }).orders.create({ finalize: false, foreign_id: 'down-1', items: [item()] }), ServerError);
    assert.equal(env.proxy.count('POST', ORDERS), 3);
    assert.equal(await ordersWith('down-1'), 0);
    env.proxy.reset();
    env.proxy.inject('POST', ORDERS, { kind: 'drop-after' });
    env.proxy.inject('GET', ORDERS, ...Array.from({ length: 10 }, () => status(503)));
    await assert.rejects(env.client({ maxAttempts: 3 }).orders.create({ finalize: false, foreign_id: 'down-2', items: [item()] }), OutcomeUnknownError);
    assert.equal(env.proxy.count('POST', ORDERS), 1, 'an unresolved outcome is never resent');
  });

  test('a validation 422 is not retried; CAPACITY_BUSY is retried once, then reported', async () => {
    await assert.rejects(env.client().orders.create({ finalize: false, items: [item(601)] }), UnprocessableError);
    assert.equal(env.proxy.count('POST', ORDERS), 1);
    const busy = status(422, { error: 'the slot is busy; retry once after a short delay', code: 'CAPACITY_BUSY', request_id: 'r' });
    env.proxy.inject('POST', ORDERS, { ...busy, headers: { 'retry-after': '0' } }, { ...busy, headers: { 'retry-after': '0' } });
    await assert.rejects(env.client().orders.create({ finalize: false, foreign_id: 'busy-1', items: [item()] }), CapacityBusyError);
    assert.equal(env.proxy.count('POST', ORDERS), 3);
    env.proxy.inject('POST', ORDERS, { ...busy, headers: { 'retry-after': '0' } });
    await env.client().orders.create({ finalize: false, foreign_id: 'busy-2', items: [item()] });
    assert.equal(await ordersWith('busy-2'), 1);
  });

  test('20 parallel orders under random faults: exactly 20 orders, none twice', async () => {
    const faults = [{ kind: 'drop-after' as const }, status(502), { kind: 'status-after' as const, status: 503 }, status(504)];
    for (let i = 0; i < 20; i++) env.proxy.injectFor('POST', ORDERS, new RegExp(`"par-${i}"`), faults[i % faults.length]!);
    env.proxy.inject('GET', ORDERS, status(503), { kind: 'drop-after' });
    const c = env.client({ maxAttempts: 5, concurrency: 5 });
    const made = await c.batch(Array.from({ length: 20 }, (_, i) => `par-${i}`), (fid) => c.orders.create({ finalize: false, foreign_id: fid, items: [item(660)] }));
    assert.equal(new Set(made.map((o) => o.id)).size, 20);
    for (let i = 0; i < 20; i++) assert.equal(await ordersWith(`par-${i}`), 1);
    assert.equal(env.proxy.seen.filter((x) => x.fault).length, 22, 'every injected fault was hit');
  });
});

describe('reservations, customers', () => {
  test('a reservation whose answer was lost is left to expire; a new one is created', async () => {
    const before = (await db.select({ n: count() }).from(reservations))[0]!.n;
    env.proxy.inject('POST', RES, { kind: 'drop-after' });
    const hold = await env.client().reservations.create({ ticket_id: env.ticketId, quantity: 2, start_at: env.slot(720) });
    assert.equal(hold.quantity, 2);
    assert.equal((await db.select({ n: count() }).from(reservations))[0]!.n, before + 2, 'the unknown hold stays until it expires');
    assert.equal(env.proxy.count('GET', /reservations/), 0, 'no lookup is attempted');
    assert.ok(env.logs.some((l) => l.obj.event === 'atrium.post_recovery' && /left to expire/.test(l.msg ?? '')));
  });

  test('customers: with a foreign_id recovered by lookup; without one an ambiguous failure is not resent', async () => {
    env.proxy.inject('POST', /\/customers$/, { kind: 'drop-after' }, { kind: 'drop-after' });
    const c = env.client();
    const made = await c.customers.create({ foreign_id: 'cu-1', name: 'A', surname: 'B', email: 'a@b.example' });
    assert.equal(made.foreign_id, 'cu-1');
    await assert.rejects(c.customers.create({ name: 'A', surname: 'B', email: 'x@b.example' }), OutcomeUnknownError);
    assert.equal(env.proxy.count('POST', /\/customers$/), 2);
    assert.ok(!env.logText().includes(env.reseller));
  });
});
