// The error contract for requests the server cannot or will not serve: wrong routes and methods,
// unreadable bodies and URLs, oversized bodies, invalid parameters. Each answer is a clean 4xx in
// the spec shape (7.2) plus `code` and `request_id`, never a 500 and never a stack trace.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Type } from 'typebox';
import { assertError } from '../contract/error-shape.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
const small = await testApp({ env: { ATRIUM_BODY_LIMIT: '1024' } });
after(() => Promise.all([t.close(), small.close()]));

// A JSON endpoint with a body schema, outside /api/v4: body parsing and validation are app-wide,
// and no POST route of the API is needed to exercise them.
for (const a of [t.app, small.app]) {
  a.post(
    '/test/echo',
    { schema: { body: Type.Object({ name: Type.String({ minLength: 1 }), tags: Type.Optional(Type.Array(Type.String())) }) } },
    async (req) => ({ ok: true, name: (req.body as { name: string }).name }),
  );
}
await Promise.all([t.app.ready(), small.app.ready()]);

const json = { 'content-type': 'application/json' };

describe('routing errors', () => {
  test('an unknown route is 404 "route is invalid"', async () => {
    for (const url of ['/api/v4/nope', '/api/v4', '/nothing/here', '/api/v5/whoami']) {
      const body = assertError(await t.request({ method: 'GET', url }), 404, 'ROUTE_INVALID');
      assert.equal(body.error, 'route is invalid');
    }
  });

  test('a wrong method on a known path is 405 with Allow, with or without trailing slash or query', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/v4/whoami'],
      ['POST', '/api/v4/whoami?x=1'],
      ['PUT', '/api/v4/whoami/'],
      ['DELETE', '/api/v4/who%61mi'],
    ] as const) {
      const res = await t.request({ method, url });
      assertError(res, 405, 'METHOD_NOT_ALLOWED');
      assert.deepEqual(String(res.headers.allow).split(', ').sort(), ['GET', 'HEAD'], url);
    }
  });

  test('undecodable percent-encoding in the path is a 400, never a 500', async () => {
    for (const url of ['/api/v4/%E0%A4%A', '/api/v4/whoami/%', '/%c0%af', '/api/v4/%ff%fe']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t.request({ method, url, headers: { 'x-request-id': 'bad-url-1' } });
        const body = assertError(res, 400, 'BAD_REQUEST');
        assert.equal(body.request_id, 'bad-url-1');
      }
    }
  });

  test('a path parameter over the length limit is a 400', async () => {
    assertError(await t.request({ method: 'GET', url: `/api/v4/orders/${'x'.repeat(300)}` }), 400, 'BAD_REQUEST');
  });

  test('invalid UTF-8 or percent-encoding in the query string is ignored', async () => {
    for (const url of ['/api/v4/whoami?x=%ff%fe', '/api/v4/whoami?%zz=1', '/api/v4/whoami?x=%', '/api/v4/whoami?a[]=%c0']) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(res.json(), { access: 'public', museums: [] });
    }
  });

  test('X-Request-Id is echoed when well-formed and replaced when not', async () => {
    const given = await t.request({ method: 'GET', url: '/api/v4/nope', headers: { 'x-request-id': 'client.req:42' } });
    assert.equal(assertError(given, 404, 'ROUTE_INVALID').request_id, 'client.req:42');
    const bad = await t.request({ method: 'GET', url: '/api/v4/nope', headers: { 'x-request-id': 'has spaces; and <html>' } });
    const body = assertError(bad, 404, 'ROUTE_INVALID');
    assert.notEqual(body.request_id, 'has spaces; and <html>');
  });
});

describe('body errors', () => {
  test('a well-formed JSON body is accepted (control)', async () => {
    const res = await t.request({ method: 'POST', url: '/test/echo', headers: json, payload: '{"name":"Ada"}' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true, name: 'Ada' });
  });

  test('a body that is not application/json is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.request({ method: 'POST', url: '/test/echo', headers: { 'content-type': type }, payload: 'name=Ada' });
      assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  test('malformed JSON is 400; an empty JSON body is no body (422 where one is needed)', async () => {
    for (const payload of ['{"name": "Ada"', '{name: 1}', 'null x', '\u00ff']) {
      const res = await t.request({ method: 'POST', url: '/test/echo', headers: json, payload });
      assert.match(assertError(res, 400, 'BAD_REQUEST').error as string, /JSON/, payload);
    }
    // go~mus clients send body-less POSTs with a JSON content type (docs/gomus-compatibility.md).
    const empty = await t.request({ method: 'POST', url: '/test/echo', headers: json, payload: '' });
    assertError(empty, 422, 'VALIDATION_FAILED');
  });

  test('a __proto__ key in the body is refused, not merged', async () => {
    const res = await t.request({ method: 'POST', url: '/test/echo', headers: json, payload: '{"name":"a","__proto__":{"x":1}}' });
    assertError(res, 400, 'BAD_REQUEST');
  });

  test('a body that breaks the schema is 422 with one message per problem', async () => {
    const res = await t.request({ method: 'POST', url: '/test/echo', headers: json, payload: '{"name":"","tags":{"a":1}}' });
    const body = assertError(res, 422, 'VALIDATION_FAILED');
    assert.equal(body.error, 'request is invalid');
    assert.equal((body.errors as string[]).length, 2, JSON.stringify(body.errors));
    const missing = await t.request({ method: 'POST', url: '/test/echo', headers: json, payload: '{}' });
    assert.deepEqual(assertError(missing, 422, 'VALIDATION_FAILED').errors, ['name is required']);
  });

  test('a body over ATRIUM_BODY_LIMIT is 413', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(2000) });
    assertError(await small.request({ method: 'POST', url: '/test/echo', headers: json, payload }), 413, 'PAYLOAD_TOO_LARGE');
    // The same body fits the default limit.
    assert.equal((await t.request({ method: 'POST', url: '/test/echo', headers: json, payload })).statusCode, 200);
  });
});

describe('parameter errors on list routes', () => {
  const list = ['/api/v4/tickets', '/api/v4/museums', '/api/v4/events', '/api/v4/orders'].find((url) =>
    t.app.hasRoute({ method: 'GET', url }),
  );
  test('per_page=abc is 422, per_page=0 is 422, never a 500', { skip: list ? false : 'no list route exists yet' }, async () => {
    const token = await t.token({ class: 'user' });
    for (const q of ['per_page=abc', 'per_page=0', 'page=-1', 'page=abc']) {
      const res = await t.request({ method: 'GET', url: `${list}?${q}`, token });
      assertError(res, 422, 'VALIDATION_FAILED');
    }
  });
});
