// The error contract for failures raised while serving: every domain code becomes its status from
// the one table, database lock conflicts become CAPACITY_BUSY, a database outage becomes 503, and
// anything unexpected becomes a bare 500 with no detail. Plus the endpoints outside /api/v4 that
// operators and integrators rely on: health, readiness and the API reference.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DomainError, ERROR_CODES, type ErrorCode } from '../../src/domain/errors.ts';
import { STATUS } from '../../src/http/status.ts';
import { assertError } from '../contract/error-shape.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
after(() => t.close());

// Test routes on this app instance only, registered before the first request.
t.app.get('/test/boom', async () => {
  throw new Error('kaboom: secret detail /srv/app/file.ts:12:3');
});
t.app.get('/test/boom-async-later', async () => {
  await new Promise((r) => setTimeout(r, 1));
  throw new TypeError("Cannot read properties of undefined (reading 'id')");
});
t.app.get<{ Params: { code: string } }>('/test/domain/:code', async (req) => {
  const code = req.params.code as ErrorCode;
  throw new DomainError(code, `failure ${code}`, code === 'VALIDATION_FAILED' ? { errors: ['a is wrong'] } : {});
});
t.app.get('/test/retry-after', async () => {
  throw new DomainError('RATE_LIMITED', 'rate limit exceeded', { retryAfter: 30 });
});
t.app.get<{ Params: { code: string } }>('/test/pg/:code', async (req) => {
  throw Object.assign(new Error(`database said ${req.params.code}`), { code: req.params.code });
});
t.app.get('/test/db-down', async () => {
  throw new Error('Connection terminated unexpectedly');
});
await t.app.ready();

describe('errors raised while serving', () => {
  test('every domain code is answered with its status from the STATUS table', async () => {
    for (const code of ERROR_CODES) {
      const res = await t.request({ method: 'GET', url: `/test/domain/${code}` });
      const body = assertError(res, STATUS[code], code);
      assert.equal(body.error, `failure ${code}`);
      if (code === 'VALIDATION_FAILED') assert.deepEqual(body.errors, ['a is wrong']);
      else assert.ok(!('errors' in body));
    }
  });

  test('retryAfter becomes the Retry-After header', async () => {
    const res = await t.request({ method: 'GET', url: '/test/retry-after' });
    assertError(res, 429, 'RATE_LIMITED');
    assert.equal(res.headers['retry-after'], '30');
  });

  test('an unexpected error is a bare 500 without any detail', async () => {
    for (const url of ['/test/boom', '/test/boom-async-later']) {
      const res = await t.request({ method: 'GET', url, headers: { 'x-request-id': 'boom-1' } });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { error: 'internal server error', code: 'INTERNAL', request_id: 'boom-1' });
      assert.doesNotMatch(res.body, /kaboom|secret|file\.ts|undefined|TypeError/);
    }
  });

  test('lock timeouts, serialization failures and deadlocks are 422 CAPACITY_BUSY with Retry-After', async () => {
    for (const pgCode of ['55P03', '40001', '40P01']) {
      const res = await t.request({ method: 'GET', url: `/test/pg/${pgCode}` });
      assertError(res, 422, 'CAPACITY_BUSY');
      assert.equal(res.headers['retry-after'], '1');
    }
  });

  test('an unreachable database is 503 with Retry-After, other database errors are a bare 500', async () => {
    for (const url of ['/test/db-down', '/test/pg/ECONNREFUSED', '/test/pg/57P01']) {
      const res = await t.request({ method: 'GET', url });
      assertError(res, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '5');
    }
    const res = await t.request({ method: 'GET', url: '/test/pg/23505' });
    assert.deepEqual(Object.keys(assertError(res, 500, 'INTERNAL')), ['error', 'code', 'request_id']);
    assert.doesNotMatch(res.body, /database said/);
  });
});

describe('operational endpoints', () => {
  test('/healthz is 200 and /readyz is 200 on a migrated database', async () => {
    const h = await t.request({ method: 'GET', url: '/healthz' });
    assert.equal(h.statusCode, 200);
    assert.deepEqual(h.json(), { status: 'ok' });
    const r = await t.request({ method: 'GET', url: '/readyz' });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), { status: 'ready' });
  });

  test('/api-docs serves the HTML reference and /api-docs/openapi.json the OpenAPI 3.1 document', async () => {
    const html = await t.request({ method: 'GET', url: '/api-docs' });
    assert.equal(html.statusCode, 200);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.match(html.body, /swagger-ui/i);
    const doc = await t.request({ method: 'GET', url: '/api-docs/openapi.json' });
    assert.equal(doc.statusCode, 200);
    assert.match(String(doc.headers['content-type']), /^application\/json/);
    assert.equal(doc.json().openapi, '3.1.0');
    assert.ok(doc.json().paths['/api/v4/whoami'].get);
  });

  test('a bad token is refused with 401 even on public and unknown routes', async () => {
    for (const url of ['/api/v4/whoami', '/api/v4/version', '/api/v4/nope']) {
      const res = await t.request({ method: 'GET', url, token: 'atr_nope_nope' });
      assertError(res, 401, 'UNAUTHORIZED');
    }
  });
});
