// Rate limits with the in-memory counters of a single node (spec 8.1, docs/api-contract.md §11).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { rotateToken } from '../../src/domain/accounts/rotateToken.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ env: { ATRIUM_RESELLER_RATE_LIMIT: '5' } });
const anon = await testApp({ env: { ATRIUM_ANON_RATE_LIMIT: '2' } });
after(async () => {
  await t.close();
  await anon.close();
});

const whoami = (app: typeof t, token?: string) =>
  app.request({ method: 'GET', url: '/api/v4/whoami', ...(token ? { token } : {}) });

describe('reseller rate limit', () => {
  test('the account override applies; the 429 has the spec shape and headers; successes carry RateLimit-*', async () => {
    const token = await t.token({ class: 'reseller', rateLimitPerMinute: 3 });
    for (const remaining of [2, 1, 0]) {
      const res = await whoami(t, token);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], '3');
      assert.equal(res.headers['ratelimit-remaining'], String(remaining));
      const reset = Number(res.headers['ratelimit-reset']);
      assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
    }
    const res = await whoami(t, token);
    assert.equal(res.statusCode, 429);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'request_id']);
    assert.equal(body.error, 'rate limit exceeded');
    assert.equal(body.code, 'RATE_LIMITED');
    assert.equal(body.request_id, res.headers['x-request-id']);
    const retryAfter = Number(res.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
    assert.equal(res.headers['ratelimit-limit'], '3');
    assert.equal(res.headers['ratelimit-remaining'], '0');
    assert.ok(res.headers['ratelimit-reset']);
    // A limited partner is still limited on every /api/v4 route, not only the one it hammered.
    assert.equal((await t.request({ method: 'GET', url: '/api/v4/version', token })).statusCode, 429);
  });

  test('each account has its own budget; the default comes from ATRIUM_RESELLER_RATE_LIMIT', async () => {
    const a = await t.token({ class: 'reseller' });
    const b = await t.token({ class: 'reseller' });
    for (let i = 0; i < 5; i++) assert.equal((await whoami(t, a)).statusCode, 200);
    assert.equal((await whoami(t, a)).statusCode, 429);
    const resB = await whoami(t, b);
    assert.equal(resB.statusCode, 200);
    assert.equal(resB.headers['ratelimit-limit'], '5');
    assert.equal(resB.headers['ratelimit-remaining'], '4');
  });

  test('two tokens of one account share the account budget', async () => {
    const token = await t.token({ class: 'reseller', rateLimitPerMinute: 2 });
    // A second token on the same account, as during `atrium token rotate ID --overlap 24h`.
    const { rows } = await t.database.pool.query<{ id: number }>('select id from api_tokens order by id desc limit 1');
    const { token: second } = await rotateToken({ db: t.database.db, clock: t.clock }, { tokenId: rows[0]!.id, overlapSeconds: 86400 });
    assert.equal((await whoami(t, token)).statusCode, 200);
    assert.equal((await whoami(t, second)).statusCode, 200);
    assert.equal((await whoami(t, token)).statusCode, 429);
    assert.equal((await whoami(t, second)).statusCode, 429);
  });

  test('limited resellers still reach /healthz and /metrics (never limited)', async () => {
    const token = await t.token({ class: 'reseller', rateLimitPerMinute: 1 });
    await whoami(t, token);
    assert.equal((await whoami(t, token)).statusCode, 429);
    for (let i = 0; i < 3; i++) {
      const h = await t.request({ method: 'GET', url: '/healthz', token });
      assert.equal(h.statusCode, 200);
      assert.equal(h.headers['ratelimit-limit'], undefined);
      assert.equal((await t.request({ method: 'GET', url: '/metrics', token })).statusCode, 200);
    }
  });

  test('user and public tokens have their own configurable budgets, per account', async () => {
    const capped = await testApp({ env: { ATRIUM_USER_RATE_LIMIT: '3', ATRIUM_PUBLIC_RATE_LIMIT: '2' } });
    try {
      const user = await capped.token({ class: 'user' });
      const pub = await capped.token({ class: 'public' });
      for (let i = 0; i < 3; i++) assert.equal((await whoami(capped, user)).statusCode, 200);
      const limited = await whoami(capped, user);
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      for (let i = 0; i < 2; i++) assert.equal((await whoami(capped, pub)).statusCode, 200);
      assert.equal((await whoami(capped, pub)).statusCode, 429);
      // Another account of the same class keeps its own budget.
      assert.equal((await whoami(capped, await capped.token({ class: 'user' }))).statusCode, 200);
    } finally {
      await capped.close();
    }
  });
});

describe('defaults (issue #14: every class is limited unless configured off)', () => {
  test('user, public and anonymous callers are limited by default; 0 turns a class off', () => {
    const d = loadConfig({});
    assert.ok(d.userRateLimit > 0 && d.publicRateLimit > 0 && d.anonRateLimit > 0, JSON.stringify(d));
    assert.ok(d.anonRateLimit <= d.publicRateLimit && d.publicRateLimit <= d.userRateLimit);
    const off = loadConfig({ ATRIUM_USER_RATE_LIMIT: '0', ATRIUM_PUBLIC_RATE_LIMIT: '0', ATRIUM_ANON_RATE_LIMIT: '0' });
    assert.deepEqual([off.userRateLimit, off.publicRateLimit, off.anonRateLimit], [0, 0, 0]);
    assert.throws(() => loadConfig({ ATRIUM_USER_RATE_LIMIT: '-1' }), /ATRIUM_USER_RATE_LIMIT/);
  });

  test('with the defaults, successes of every class carry RateLimit-* headers', async () => {
    const d = await testApp({ env: { ATRIUM_USER_RATE_LIMIT: '', ATRIUM_PUBLIC_RATE_LIMIT: '', ATRIUM_ANON_RATE_LIMIT: '' } });
    try {
      const defaults = loadConfig({});
      const user = await d.token({ class: 'user' });
      const pub = await d.token({ class: 'public' });
      for (const [token, limit] of [[user, defaults.userRateLimit], [pub, defaults.publicRateLimit], [undefined, defaults.anonRateLimit]] as const) {
        const res = await whoami(d, token);
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], String(limit));
      }
    } finally {
      await d.close();
    }
  });
});

describe('anonymous per-IP limit (ATRIUM_ANON_RATE_LIMIT)', () => {
  test('anonymous callers are limited per IP; tokens, health and metrics are not', async () => {
    const from = (ip: string) => anon.request({ method: 'GET', url: '/api/v4/whoami', remoteAddress: ip });
    assert.equal((await from('10.0.0.1')).statusCode, 200);
    const second = await from('10.0.0.1');
    assert.equal(second.statusCode, 200);
    assert.equal(second.headers['ratelimit-remaining'], '0');
    assert.equal((await from('10.0.0.1')).statusCode, 429);
    assert.equal((await from('10.0.0.2')).statusCode, 200);

    const user = await anon.token({ class: 'user' });
    for (let i = 0; i < 4; i++) {
      assert.equal((await anon.request({ method: 'GET', url: '/api/v4/whoami', token: user, remoteAddress: '10.0.0.1' })).statusCode, 200);
      assert.equal((await anon.request({ method: 'GET', url: '/healthz', remoteAddress: '10.0.0.1' })).statusCode, 200);
      assert.equal((await anon.request({ method: 'GET', url: '/metrics', remoteAddress: '10.0.0.1' })).statusCode, 200);
    }
  });
});
