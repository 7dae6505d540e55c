// The one log line per request (spec 7.5 server side), and the promise that a bearer token never
// leaks: not into a log line, not into an error body, not into the database in clear.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Type } from 'typebox';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { maskUrl } from '../../src/http/api/plugins/request-log.ts';
import { freshDatabase } from '../helpers/db.ts';
import { logLines } from '../helpers/logLines.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const { lines, stream } = logLines();
const database = await freshDatabase();
const clock = new ManualClock(new Date());
const app = await buildApp({
  database,
  clock,
  config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent', ATRIUM_RESELLER_RATE_LIMIT: '4' }),
  logger: { level: 'info', stream },
  ...TEST_SCHEMAS,
});
// A route of the test's own with a body schema, to produce a 422 with an `errors` list.
app.post('/api/v4/test-validation', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));
after(async () => {
  await app.close();
  await database.drop();
});

const reseller = await createToken({ db: database.db, clock }, { class: 'reseller', name: 'Partner' });
const user = await createToken({ db: database.db, clock }, { class: 'user', name: 'Back office', rights: ['*'] });

function linesFor(requestId: string) {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === requestId);
}

describe('request log', () => {
  test('one line per request with status, method, masked path, duration, account, last 4, UTC time, request id', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v4/whoami?page=2&token=${user.token}&access_token=abc&API_KEY=k1&by_museum_ids[]=1`,
      headers: { authorization: `Bearer ${reseller.token}`, 'x-request-id': 'log-test-1' },
    });
    assert.equal(res.statusCode, 200);
    const mine = linesFor('log-test-1');
    assert.equal(mine.length, 1, JSON.stringify(mine));
    const line = mine[0]!;
    assert.equal(line.msg, 'request');
    assert.equal(line.status, 200);
    assert.equal(line.method, 'GET');
    assert.equal(line.path, '/api/v4/whoami?page=2&token=****&access_token=****&API_KEY=****&by_museum_ids[]=1');
    assert.equal(typeof line.duration_ms, 'number');
    assert.equal(line.account_id, reseller.accountId);
    assert.equal(line.account_class, 'reseller');
    assert.equal(line.token_last4, reseller.token.slice(-4));
    assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(line.error, undefined);
  });

  test('failures log error, errors and code from the body; anonymous and failed-auth calls are logged too', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v4/test-validation',
      payload: { n: 'x' },
      headers: { authorization: `Bearer ${user.token}`, 'x-request-id': 'log-test-2' },
    });
    assert.equal(bad.statusCode, 422);
    const [l2] = linesFor('log-test-2');
    assert.equal(l2!.status, 422);
    assert.equal(l2!.code, 'VALIDATION_FAILED');
    assert.equal(l2!.error, bad.json().error);
    assert.deepEqual(l2!.errors, bad.json().errors);
    assert.equal(l2!.account_class, 'user');

    const unknown = user.token.slice(0, -4) + (user.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const denied = await app.inject({
      method: 'GET',
      url: '/api/v4/whoami',
      headers: { authorization: `Bearer ${unknown}`, 'x-request-id': 'log-test-3' },
    });
    assert.equal(denied.statusCode, 401);
    const [l3] = linesFor('log-test-3');
    assert.equal(l3!.code, 'UNAUTHORIZED');
    assert.equal(l3!.token_last4, unknown.slice(-4));
    assert.equal(l3!.account_id, undefined);

    await app.inject({ method: 'GET', url: '/api/v4/no-such-route', headers: { 'x-request-id': 'log-test-4' } });
    const [l4] = linesFor('log-test-4');
    assert.equal(l4!.status, 404);
    assert.equal(l4!.code, 'ROUTE_INVALID');
    assert.equal(l4!.account_class, 'anonymous');
  });

  test('no full token reaches a log line, an error body or the database in clear', async () => {
    const bodies: string[] = [];
    const calls = [
      { url: '/api/v4/whoami', token: reseller.token },
      { url: `/api/v4/whoami?token=${reseller.token}`, token: user.token },
      { url: `/api/v4/customers/${reseller.token}`, token: user.token },
      { url: `/api/v4/reservations/${user.token}`, token: reseller.token },
      { url: `/api/v4/no-such/${user.token}?api_key=${reseller.token}` },
      { url: '/api/v4/whoami', token: `${reseller.token}x` },
      { url: '/api/v4/whoami', token: reseller.token.replace(/^atr_[a-z0-9]+_/, 'atr_other_') },
    ];
    // Enough reseller calls to be rate limited (limit 4): the 429 path is covered as well.
    for (let i = 0; i < 6; i++) calls.push({ url: '/api/v4/version', token: reseller.token });
    for (const c of calls) {
      const res = await app.inject({ method: 'GET', url: c.url, headers: c.token ? { authorization: `Bearer ${c.token}` } : {} });
      if (res.statusCode >= 400) bodies.push(res.body);
    }
    for (const c of [{ payload: { n: reseller.token } }, { payload: `{"n": "${user.token}"` }]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v4/test-validation',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        payload: typeof c.payload === 'string' ? c.payload : JSON.stringify(c.payload),
      });
      bodies.push(res.body);
    }
    assert.ok(bodies.some((b) => b.includes('RATE_LIMITED')), 'the 429 path ran');
    assert.ok(lines.length >= calls.length);

    // The 43-character secret part of each token; a third of it is already too much to show.
    for (const { token } of [reseller, user]) {
      const secret = token.split('_').slice(2).join('_');
      for (const needle of [secret.slice(0, 15), secret.slice(14, 30), secret.slice(-15)]) {
        for (const l of lines) assert.ok(!l.includes(needle), `token fragment in log line: ${l}`);
        for (const b of bodies) assert.ok(!b.includes(needle), `token fragment in error body: ${b}`);
      }
      const tables = await database.pool.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      );
      assert.ok(tables.rows.some((r) => r.table_name === 'api_tokens'));
      for (const { table_name } of tables.rows) {
        // The whole row as text covers every column, whatever its type (text, jsonb, arrays).
        const hit = await database.pool.query(`select 1 from "${table_name}" t where t::text like $1 limit 1`, [`%${secret.slice(0, 20)}%`]);
        assert.equal(hit.rowCount, 0, `token found in clear in table ${table_name}`);
      }
    }
  });
});

describe('maskUrl', () => {
  test('masks named secret parameters in any spelling and token-shaped strings anywhere', () => {
    assert.equal(maskUrl('/a?token=x&b=1'), '/a?token=****&b=1');
    // A manage-booking link opens the booking: only its last four characters are logged.
    assert.equal(maskUrl(`/shop/manage/mb_${'A'.repeat(39)}wxyz/move/3?date=2026-01-01`), '/shop/manage/mb_****wxyz/move/3?date=2026-01-01');
    // So does the shop's order page, whose token opens the visitor's order.
    assert.equal(maskUrl('/shop/orders/5fz5zLemrNaRtYrX-NJ4kQ/ics'), '/shop/orders/****J4kQ/ics');
    assert.equal(maskUrl('/a?Access_Token=x&api%5Fkey=y&token[]=z'), '/a?Access_Token=****&api%5Fkey=****&token[]=****');
    assert.equal(maskUrl('/a?tokens=x&q=token'), '/a?tokens=x&q=****');
    const t = `atr_abc123_${'A'.repeat(39)}wxyz`;
    assert.equal(maskUrl(`/r/${t}?ref=${t}`), '/r/atr_****wxyz?ref=atr_****wxyz');
    assert.equal(maskUrl('/plain'), '/plain');
  });

  test('masks e-mail addresses as the pattern does, in one pass however long the URL', () => {
    assert.equal(maskUrl('/c/bob.b%40example.com/x@y.org?z=1'), '/c/****/****?z=1');
    assert.equal(maskUrl(`/c/${'a'.repeat(300)}%40example.com`), '/c/****');
    assert.equal(maskUrl('/c/a@b.cd,e@f.gh'), '/c/****,****');
    const long = `/c/x@y.z/${'a1._-'.repeat(2000)}@nodot/${'b'.repeat(5000)}`;
    assert.equal(maskUrl(long), long.replace('x@y.z', '****'));
    // The same masks as the pattern, on short strings over the characters that matter.
    const pattern = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi;
    const alphabet = ['a', 'B', '1', '.', '-', '_', '%', '4', '0', '%40', '@', '/', ','];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 20_000; n++) {
      const text = `/${Array.from({ length: 1 + (next() % 14) }, () => alphabet[next() % alphabet.length]).join('')}`;
      assert.equal(maskUrl(text), text.replace(pattern, '****'), text);
    }
  });

});
