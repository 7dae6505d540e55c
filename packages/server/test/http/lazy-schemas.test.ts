// `atrium serve` compiles route schemas on first use (src/http/api/lazy-schemas.ts, buildApp's
// lazySchemas). The answers must be the same as with Fastify's eager compilation: validation
// (with coercion and defaults), validation errors, and serialized bodies of every status.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { seedDemo } from '../../src/domain/demo/seedDemo.ts';
import { freshDatabase } from '../helpers/db.ts';
import { PLUGIN_HEADERS } from '../../src/http/api/openapi-shape.ts';

const database = await freshDatabase();
const config = loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' });
const clock = new ManualClock(new Date('2026-05-04T10:00:00Z'));
await seedDemo({ db: database.db, clock });
const { token } = await createToken({ db: database.db, clock }, { name: 'lazy-schemas', class: 'user', museumIds: [], rights: ['*'] });

const logLines: Array<{ level: number; msg: string }> = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString().split('\n')) if (line) logLines.push(JSON.parse(line));
    done();
  },
});

const eager = await buildApp({ database, config, clock, logger: false });
const lazy = await buildApp({ database, config, clock, lazySchemas: true, logger: { level: 'debug', stream: logStream } });
after(async () => {
  await lazy.close();
  await eager.close();
  await database.drop();
});

const requests: InjectOptions[] = [
  { method: 'GET', url: '/api/v4/tickets' },
  { method: 'GET', url: '/api/v4/tickets?per_page=2&page=2' },
  { method: 'GET', url: '/api/v4/museums?by_museum_ids=1' }, // one value coerced to an array
  { method: 'GET', url: '/api/v4/museums?by_museum_ids[]=1&by_museum_ids[]=2' },
  { method: 'GET', url: '/api/v4/events?per_page=abc' }, // 422 from the query validator
  { method: 'GET', url: '/api/v4/events?per_page=0' },
  { method: 'GET', url: '/api/v4/tickets/999999' }, // 404 error body
  { method: 'GET', url: '/api/v4/tickets/abc' }, // 422 from the params validator
  { method: 'GET', url: '/api/v4/whoami', headers: { authorization: `Bearer ${token}` } },
  { method: 'GET', url: '/api/v4/customers', headers: { authorization: `Bearer ${token}` } },
  { method: 'POST', url: '/api/v4/customers', headers: { authorization: `Bearer ${token}` }, payload: { customer: { email: 42 } } }, // body validator
  { method: 'POST', url: '/api/v4/customers', headers: { authorization: `Bearer ${token}` }, payload: 'not json' },
  { method: 'GET', url: '/api/v4/no-such-route' },
  { method: 'GET', url: '/readyz' },
];

async function answer(app: FastifyInstance, req: InjectOptions, i: number) {
  const res = await app.inject({ ...req, headers: { ...(req.headers ?? {}), 'x-request-id': `lazy-${i}` } });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.body };
}

describe('route schemas compiled on first use', () => {
  test('answers are the same as with schemas compiled at start', async () => {
    for (const [i, req] of requests.entries()) {
      const expected = await answer(eager, req, i);
      // Twice: the first call compiles, the second uses the compiled function.
      assert.deepEqual(await answer(lazy, req, i), expected, `${req.method} ${req.url}`);
      assert.deepEqual(await answer(lazy, req, i), expected, `${req.method} ${req.url} (again)`);
    }
    const statuses = new Set((await Promise.all(requests.map((r, i) => answer(eager, r, i)))).map((a) => a.status));
    for (const s of [200, 404, 415, 422]) assert.ok(statuses.has(s), `the requests cover status ${s}`);
  });

  test('once listening, every remaining schema is compiled in the background without errors', async () => {
    await lazy.listen({ port: 0, host: '127.0.0.1' });
    const deadline = Date.now() + 20_000;
    while (!logLines.some((l) => l.msg === 'route schemas compiled') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.ok(logLines.some((l) => l.msg === 'route schemas compiled'), 'warm-up finished');
    assert.deepEqual(logLines.filter((l) => l.level >= 50), [], 'no errors logged');
  });

  // If-None-Match and Idempotency-Key are read by plugins and only documented (http/api/openapi-shape.ts).
  test('no route has a headers schema (Fastify lower-cases those only for its default compiler)', async () => {
    const doc = eager.swagger() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string }> }>> };
    const withHeaders = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.parameters?.some((p) => p.in === 'header' && !PLUGIN_HEADERS.includes((p as { name?: string }).name ?? '')))
        .map(([method]) => `${method} ${path}`),
    );
    assert.deepEqual(withHeaders, []);
  });
});
