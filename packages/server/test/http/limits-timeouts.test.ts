// Statement and lock timeouts per request class (docs/operations.md "Limits
// and their settings"): with the database frozen by a lock held elsewhere, a read is answered
// 503 with Retry-After after the read timeout, a write after the write timeout, instead of
// hanging for as long as the lock is held (20 s and more in the probe). The background jobs'
// connections get their own, longer timeout.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { databaseTimeouts } from '../../src/db/timeouts.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { freshDatabase } from '../helpers/db.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const fresh = await freshDatabase();
const config = loadConfig({
  ATRIUM_DATA_DIR: '/nonexistent',
  ATRIUM_READ_TIMEOUT_MS: '600',
  ATRIUM_WRITE_TIMEOUT_MS: '2000',
  ATRIUM_JOB_TIMEOUT_MS: '4000',
  ATRIUM_LOCK_TIMEOUT_MS: '60000',
});
// The pool as `atrium serve` opens it (cli/serve.ts): web timeouts on every connection.
const database = openDatabase(fresh.url, { max: 5, ...databaseTimeouts(config, 'web') });
const app = await buildApp({ database, config, logger: false, ...TEST_SCHEMAS });
const { token } = await createToken({ db: database.db, clock: systemClock }, { class: 'user', name: 'timeouts', rights: ['*'] });
const auth = { authorization: `Bearer ${token}` };
const locker = new pg.Client({ connectionString: fresh.url });
await locker.connect();
after(async () => {
  await locker.end().catch(() => {});
  await app.close();
  await database.close();
  await fresh.drop();
});

/** Holds an exclusive lock on `table` (nothing can read or write it) while `fn` runs. */
async function frozen<T>(table: string, fn: () => Promise<T>): Promise<T> {
  await locker.query('begin');
  await locker.query(`lock table ${table} in access exclusive mode`);
  try {
    return await fn();
  } finally {
    await locker.query('rollback');
  }
}

function assertUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  assert.equal(res.statusCode, 503, JSON.stringify(res.json()));
  assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After');
  const body = res.json() as Record<string, unknown>;
  assert.equal(body.code, 'SERVICE_UNAVAILABLE');
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'request_id']);
}

describe('timeouts per request class', () => {
  test('a read on a frozen table is a quick 503 with Retry-After, then answers again', async () => {
    assert.equal((await app.inject({ url: '/api/v4/customers', headers: auth })).statusCode, 200);
    const { res, ms } = await frozen('customers', async () => {
      const started = Date.now();
      const res = await app.inject({ url: '/api/v4/customers', headers: auth });
      return { res, ms: Date.now() - started };
    });
    assertUnavailable(res);
    assert.ok(ms >= 500 && ms < 1500, `answered after ${ms} ms (read timeout 600 ms, write timeout 2 s)`);
    assert.equal((await app.inject({ url: '/api/v4/customers', headers: auth })).statusCode, 200);
  });

  test('a write on a frozen table is a 503 after the write timeout, nothing written', async () => {
    const { res, ms } = await frozen('customers', async () => {
      const started = Date.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/v4/customers',
        headers: auth,
        payload: { name: 'Ada', surname: 'Frozen', email: 'ada.frozen@example.org' },
      });
      return { res, ms: Date.now() - started };
    });
    assertUnavailable(res);
    assert.ok(ms >= 1900 && ms < 5000, `answered after ${ms} ms (write timeout 2 s)`);
    const n = await database.pool.query(`select count(*)::int n from customers where surname = 'Frozen'`);
    assert.equal(n.rows[0].n, 0);
  });

  test('each class has its own statement timeout on its connections', async () => {
    const show = async (cls: 'web' | 'jobs') => {
      const db = openDatabase(fresh.url, { max: 1, ...databaseTimeouts(config, cls) });
      try {
        const r = await db.pool.query<{ s: string; l: string }>(`select current_setting('statement_timeout') s, current_setting('lock_timeout') l`);
        return r.rows[0]!;
      } finally {
        await db.close();
      }
    };
    assert.deepEqual(await show('web'), { s: '2s', l: '1min' });
    assert.deepEqual(await show('jobs'), { s: '4s', l: '1min' });
  });

  test('defaults: reads shorter than writes, writes shorter than jobs', () => {
    const d = loadConfig({});
    assert.ok(d.readTimeoutMs > 0 && d.readTimeoutMs < d.writeTimeoutMs && d.writeTimeoutMs < d.jobTimeoutMs, JSON.stringify(d));
  });
});
