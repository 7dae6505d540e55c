import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
after(() => t.close());

describe('GET /api/v4/whoami and token resolution', () => {
  test('anonymous is public with all museums', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v4/whoami' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { access: 'public', museums: [] });
    assert.ok(res.headers['x-request-id']);
  });

  test('each token class is reported with its museum scope', async () => {
    for (const [cls, museums] of [
      ['public', []],
      ['user', [1, 2]],
      ['reseller', [5]],
    ] as const) {
      const token = await t.token({ class: cls, museumIds: [...museums] });
      const res = await t.request({ method: 'GET', url: '/api/v4/whoami', token });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { access: cls, museums });
    }
  });

  test('unknown, malformed, foreign-instance, expired and revoked tokens are 401 with the spec shape', async () => {
    const good = await t.token({ class: 'reseller' });
    const foreign = good.replace(/^atr_[a-z0-9]+_/, 'atr_zzzzzzzz_');
    const unknown = good.slice(0, -4) + (good.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const [token, fragment] of [
      ['nonsense', 'invalid'],
      [foreign, 'another instance'],
      [unknown, 'no customer or no user present'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: '/api/v4/whoami', token });
      assert.equal(res.statusCode, 401, token);
      const body = res.json();
      assert.equal(body.code, 'UNAUTHORIZED');
      assert.match(body.error, new RegExp(fragment));
      assert.equal(body.request_id, res.headers['x-request-id']);
      if (token.length > 20) assert.ok(!JSON.stringify(body).includes(token.slice(8)), 'the token never appears in a response');
    }
    const expiring = await t.token({ class: 'public', expiresIn: 60 });
    assert.equal((await t.request({ method: 'GET', url: '/api/v4/whoami', token: expiring })).statusCode, 200);
    t.clock.advance(61_000);
    const expired = await t.request({ method: 'GET', url: '/api/v4/whoami', token: expiring });
    assert.equal(expired.statusCode, 401);
    assert.match(expired.json().error, /expired/);
  });

  test('a non-Bearer Authorization header is 401', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v4/whoami', headers: { authorization: 'Basic abc' } });
    assert.equal(res.statusCode, 401);
  });

  test('unknown route is 404 "route is invalid", wrong method is 405', async () => {
    const nf = await t.request({ method: 'GET', url: '/api/v4/nope' });
    assert.equal(nf.statusCode, 404);
    assert.deepEqual({ error: nf.json().error, code: nf.json().code }, { error: 'route is invalid', code: 'ROUTE_INVALID' });
    const wm = await t.request({ method: 'DELETE', url: '/api/v4/whoami' });
    assert.equal(wm.statusCode, 405);
    assert.equal(wm.json().code, 'METHOD_NOT_ALLOWED');
    assert.match(String(wm.headers.allow), /GET/);
  });

  test('X-Request-Id is taken from the request when it is well-formed', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v4/version', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(res.headers['x-request-id'], 'abc-123');
    assert.equal(res.json().version.api, '4.4');
  });
});
