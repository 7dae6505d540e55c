// Rate limits shared through Redis (REDIS_URL): several nodes enforce one budget per account;
// Redis unreachable → requests are still served (fail open, per-node counting); Redis back →
// shared counting resumes without a restart.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.ts';
import { freePort } from '../../src/db/embedded.ts';
import { testApp, type TestApp, TEST_SCHEMAS } from '../helpers/app.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const prefix = `atrium-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function accountIdOf(t: TestApp, token: string): Promise<number> {
  const res = await t.database.pool.query<{ account_id: number }>('select account_id from api_tokens where last4 = $1', [token.slice(-4)]);
  return res.rows[0]!.account_id;
}

describe('rate limits in Redis', () => {
  test('two app instances sharing Redis enforce one budget', { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, async () => {
    const env = { REDIS_URL: redisUrl!, ATRIUM_REDIS_PREFIX: prefix, ATRIUM_RESELLER_RATE_LIMIT: '10' };
    const one = await testApp({ env });
    cleanups.push(() => one.close());
    // The second node: same database and configuration, its own process state.
    const two = await buildApp({ database: one.database, config: one.config, clock: one.clock, logger: false, ...TEST_SCHEMAS });
    cleanups.push(() => two.close());
    const admin = new Redis(redisUrl!);
    cleanups.push(async () => {
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length) await admin.del(...keys);
      admin.disconnect();
    });

    const token = await one.token({ class: 'reseller' });
    const other = await one.token({ class: 'reseller' });
    const headers = { authorization: `Bearer ${token}` };
    // 30 requests, alternating nodes, half of them concurrently: Redis counts atomically (INCR in
    // one script), so exactly the budget is served: tolerance 0 inside one 60-second window.
    const calls = [];
    for (let i = 0; i < 30; i++) {
      const app = i % 2 === 0 ? one.app : two;
      calls.push(i < 15 ? await app.inject({ method: 'GET', url: '/api/v4/whoami', headers }) : app.inject({ method: 'GET', url: '/api/v4/whoami', headers }));
    }
    const results = await Promise.all(calls);
    const served = results.filter((r) => r.statusCode === 200).length;
    const limited = results.filter((r) => r.statusCode === 429).length;
    assert.equal(served, 10);
    assert.equal(limited, 20);
    assert.equal(Number(await admin.get(`${prefix}rl:a:${await accountIdOf(one, token)}`)), 30);
    const ttl = await admin.pttl(`${prefix}rl:a:${await accountIdOf(one, token)}`);
    assert.ok(ttl > 0 && ttl <= 60_000, `ttl ${ttl}`);
    // Another account has its own budget on both nodes.
    const res = await two.inject({ method: 'GET', url: '/api/v4/whoami', headers: { authorization: `Bearer ${other}` } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-remaining'], '9');
  });

  test('Redis unreachable: requests are served at once and the limit holds per node (fail open)', async () => {
    const started = Date.now();
    const t = await testApp({ env: { REDIS_URL: 'redis://127.0.0.1:1', ATRIUM_RESELLER_RATE_LIMIT: '3' } });
    cleanups.push(() => t.close());
    assert.ok(Date.now() - started < 10_000, 'start is not held up by Redis for long');
    const token = await t.token({ class: 'reseller' });
    const user = await t.token({ class: 'user' });
    // Warm-up (first connection, first compile) so the timings below measure the limiter only.
    assert.equal((await t.request({ method: 'GET', url: '/api/v4/whoami', token: user })).statusCode, 200);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const begin = Date.now();
      const res = await t.request({ method: 'GET', url: '/api/v4/whoami', token });
      assert.ok(Date.now() - begin < 2_000, 'a request never waits for Redis');
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.equal((await t.request({ method: 'GET', url: '/api/v4/whoami', token: user })).statusCode, 200);
  });

  test('Redis that goes away and comes back: served meanwhile, shared counting resumes', { skip: hasRedisServer ? false : 'redis-server not installed' }, async () => {
    const port = await freePort();
    const startRedis = async () => {
      const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 100, maxRetriesPerRequest: null });
      probe.on('error', () => {});
      await probe.connect().catch(() => {});
      await probe.ping();
      probe.disconnect();
      return proc;
    };
    const stopRedis = async (p: ChildProcess) => {
      p.kill('SIGKILL');
      await once(p, 'exit');
    };
    let server = await startRedis();
    cleanups.push(() => stopRedis(server));
    const t = await testApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, ATRIUM_REDIS_PREFIX: prefix, ATRIUM_RESELLER_RATE_LIMIT: '1000' } });
    cleanups.push(() => t.close());
    const token = await t.token({ class: 'reseller' });
    const key = `${prefix}rl:a:${await accountIdOf(t, token)}`;
    const whoami = () => t.request({ method: 'GET', url: '/api/v4/whoami', token });

    for (let i = 0; i < 2; i++) assert.equal((await whoami()).statusCode, 200);
    const admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 100 });
    admin.on('error', () => {}); // expected while the server is stopped
    cleanups.push(async () => admin.disconnect());
    assert.equal(Number(await admin.get(key)), 2);

    await stopRedis(server);
    for (let i = 0; i < 3; i++) {
      const begin = Date.now();
      assert.equal((await whoami()).statusCode, 200);
      assert.ok(Date.now() - begin < 2_000, 'served without waiting for Redis');
    }

    server = await startRedis(); // same port, empty data
    const deadline = Date.now() + 15_000;
    let counted = 0;
    while (Date.now() < deadline) {
      assert.equal((await whoami()).statusCode, 200);
      counted = Number((await admin.get(key).catch(() => null)) ?? 0);
      if (counted > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(counted > 0, 'counting in Redis resumed after it came back');
    await whoami();
    assert.equal(Number(await admin.get(key)), counted + 1);
  });
});
