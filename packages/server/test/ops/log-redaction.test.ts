// Sensitive data never reaches a log line (docs/operations.md "Logs"):
// a failed statement is logged by its statement, never its bound parameters (one line had held a
// whole 13.8 MB upload and token hashes); personal query parameters (e-mail, names, phone, search
// text) are masked in the request line; no line is longer than the cap, whatever it holds.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { MAX_LOG_LINE } from '../../src/ops/log-safety.ts';
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
  config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }),
  logger: { level: 'info', stream },
  ...TEST_SCHEMAS,
});
// A secret-bearing value as big as an upload, bound to a statement that fails in PostgreSQL
// (invalid input for an integer): the shape of the failure the probe saw.
const SECRET = 'f3a1c0ffee'.repeat(8);
const HUGE = `${SECRET}-${'A'.repeat(2 * 1024 * 1024)}`;
app.post('/api/v4/test-failing-statement', async () => {
  await database.db.execute(sql`select ${HUGE}::int as n, ${SECRET}::text as token_hash`);
  return { ok: true };
});
app.get('/api/v4/test-big-line', async (req) => {
  req.log.info({ blob: 'B'.repeat(1024 * 1024) }, 'a line with a huge field');
  return { ok: true };
});
after(async () => {
  await app.close();
  await database.drop();
});

const user = await createToken({ db: database.db, clock }, { class: 'user', name: 'Back office', rights: ['*'] });

const parsed = (id: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === id);

describe('log redaction', () => {
  test('a failed statement is logged by its statement, without its parameters, in a short line', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v4/test-failing-statement',
      headers: { authorization: `Bearer ${user.token}`, 'x-request-id': 'redact-1' },
    });
    assert.equal(res.statusCode, 500);
    assert.ok(!res.body.includes(SECRET), 'the answer holds no parameter');
    const mine = lines.filter((l) => l.includes('"redact-1"'));
    assert.ok(mine.length >= 2, `an error line and a request line (${mine.length})`);
    for (const l of mine) {
      assert.ok(!l.includes(SECRET), `no bound parameter in: ${l.slice(0, 300)}`);
      assert.ok(!l.includes('AAAAAAAAAA'), 'no part of the big parameter');
      assert.ok(l.length <= MAX_LOG_LINE, `line of ${l.length} characters`);
    }
    const err = parsed('redact-1').find((l) => l.msg === 'unhandled error')?.err as Record<string, unknown> | undefined;
    assert.ok(err, 'the failure is logged');
    assert.match(String(err.statement), /^select \$1::int as n, \$2::text as token_hash/);
    assert.equal(err.params, undefined);
    assert.equal(err.code ?? (err.cause as Record<string, unknown> | undefined)?.code, '22P02');
  });

  test('personal query parameters and e-mail addresses are masked in the request line', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v4/customers?email=alice.smith%40example.org&name=Alice&surname=Smith&phone=%2B4930123&q=alice&page=2&by_museum_ids[]=3',
      headers: { authorization: `Bearer ${user.token}`, 'x-request-id': 'redact-2' },
    });
    assert.ok(res.statusCode < 500);
    const line = parsed('redact-2').find((l) => l.msg === 'request');
    assert.ok(line, 'the request is logged');
    assert.equal(line.path, '/api/v4/customers?email=****&name=****&surname=****&phone=****&q=****&page=2&by_museum_ids[]=3');
    const raw = lines.filter((l) => l.includes('"redact-2"')).join('\n');
    for (const pii of ['alice', 'Alice', 'Smith', '4930123']) assert.ok(!raw.includes(pii), `${pii} is not logged`);
  });

  test('an e-mail address anywhere in the URL is masked', () => {
    assert.equal(maskUrl('/api/v4/customers/by-mail/bob%40example.com?x=1'), '/api/v4/customers/by-mail/****?x=1');
    assert.equal(maskUrl('/a?contact=bob@example.com&first_name=Bob&last_name=B'), '/a?contact=****&first_name=****&last_name=****');
  });

  test('no log line is longer than the cap, and a capped line is still valid JSON naming its request', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v4/test-big-line', headers: { 'x-request-id': 'redact-3' } });
    assert.equal(res.statusCode, 200);
    const mine = lines.filter((l) => l.includes('"redact-3"'));
    assert.equal(mine.length, 2);
    for (const l of mine) assert.ok(l.length <= MAX_LOG_LINE, `line of ${l.length} characters`);
    const capped = parsed('redact-3').find((l) => l.truncated === true);
    assert.ok(capped, 'the big line is replaced by a capped one');
    assert.equal(capped.msg, 'a line with a huge field');
    assert.equal(capped.level, 30);
    assert.ok(Number(capped.original_length) > 1024 * 1024);
  });
});
