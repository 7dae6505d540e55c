// Bots must not hold a day: a cart holds at most so many places, and holding actions are counted
// per visitor and per address (src/http/shop/limits.ts). The message says what to do.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DomainError } from '../../src/domain/errors.ts';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from '../../src/db/embedded.ts';
import { shopLimiter } from '../../src/http/shop/limits.ts';
import { counterStore, Limiter, memoryLimiter } from '../../src/ops/limiter.ts';
import { RedisCounters } from '../../src/ops/rate-store.ts';
import { SHOP_MESSAGES } from '../../src/http/shop/i18n.ts';
import { redirectOf, shopWorld, Visitor } from './support.ts';

const w = await shopWorld({ capacity: 200 });
after(() => w.t.close());

test('a cart holds at most 30 places', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  for (const min of [600, 630, 660]) {
    assert.equal(redirectOf(await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(min), [`q_${w.regular}`]: 8, [`q_${w.reduced}`]: 2 })), '/shop/cart');
  }
  const full = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(690), [`q_${w.regular}`]: 1 });
  assert.equal(full.statusCode, 422);
  assert.match(full.body, /at most 30 places/);
});

test('the per-visitor budget, then the per-address budget', async () => {
  const l = shopLimiter(memoryLimiter(), { perVisitor: 2, perAddress: 3, placesPerCart: 10 });
  await l.take('a', '1.1.1.1');
  await l.take('a', '1.1.1.1');
  await assert.rejects(l.take('a', '1.1.1.1'), (e: unknown) => e instanceof DomainError && e.code === 'RATE_LIMITED' && (e.retryAfter ?? 0) > 0);
  // A new cookie does not buy a new budget at the same address.
  await assert.rejects(l.take('b', '1.1.1.1'), (e: unknown) => e instanceof DomainError && e.code === 'RATE_LIMITED');
  await l.take('c', '2.2.2.2');
});

test('holds, manage-link misses and gift-card look-ups all count in the app\'s one limiter', async () => {
  const store = w.t.app.limiter.store;
  const ip = '10.9.8.7';
  const v = new Visitor(w.t, { ip });
  await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(720), [`q_${w.regular}`]: 1 });
  assert.equal((await store.peek(`lim:shop:a:${ip}`)).current, 1);
  assert.equal((await v.get(`/shop/manage/mb_${'x'.repeat(43)}`)).statusCode, 404);
  assert.equal((await store.peek(`lim:mb:${ip}`)).current, 1);
  await w.t.app.inject({ method: 'GET', url: '/api/v4/gift_cards/balance?code=AAAA-BBBB-CCCC-DDDD', remoteAddress: ip });
  assert.equal((await store.peek(`lim:gc:${ip}`)).current, 1);
  assert.equal((await store.peek(`lim:gc:${ip}`)).current, 1, 'a peek does not count');
});

test('in Redis, two nodes\' limiters share one budget', { skip: spawnSync('redis-server', ['--version']).status === 0 ? false : 'redis-server not installed' }, async () => {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const log = { warn() {}, info() {} };
  const conf = { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: 'atrium-limiter-test:' };
  let one: Awaited<ReturnType<typeof counterStore>> | undefined;
  let two: Awaited<ReturnType<typeof counterStore>> | undefined;
  try {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 100, maxRetriesPerRequest: null });
    probe.on('error', () => {});
    await probe.connect().catch(() => {});
    await probe.ping();
    probe.disconnect();
    one = await counterStore(conf, log);
    two = await counterStore(conf, log);
    assert.ok(one.store instanceof RedisCounters);
    const a = new Limiter(one!.store);
    const b = new Limiter(two.store);
    const budget = { max: 3, windowMs: 60_000 };
    assert.equal(await a.hit('k', budget), null);
    assert.equal(await b.hit('k', budget), null);
    assert.equal(await b.spent('k', budget), null);
    assert.equal(await a.hit('k', budget), null);
    assert.ok((await b.spent('k', budget))! > 0, 'the other node sees the budget spent');
    assert.ok((await b.hit('k', budget))! > 0);
  } finally {
    await one?.close();
    await two?.close();
    proc.kill('SIGKILL');
    await once(proc, 'exit');
  }
});

test('German and English have the same message keys', () => {
  assert.deepEqual(Object.keys(SHOP_MESSAGES.de).sort(), Object.keys(SHOP_MESSAGES.en).sort());
});
