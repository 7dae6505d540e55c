// CORS: off unless ATRIUM_CORS_ORIGINS names origins; then only reads (GET/HEAD) from exactly
// those origins, never writes, never with a token (spec 5.7: tokens stay on servers).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { testApp } from '../helpers/app.ts';

const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';
const off = await testApp();
const on = await testApp({ env: { ATRIUM_CORS_ORIGINS: `${SHOP}, https://other.example:8443` } });
after(() => Promise.all([off.close(), on.close()]));

const preflight = (method: string, origin = SHOP, requestHeaders?: string) => ({
  method: 'OPTIONS' as const,
  url: '/api/v4/tickets',
  headers: {
    origin,
    'access-control-request-method': method,
    ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}),
  },
});

function corsHeaders(res: { headers: Record<string, unknown> }): string[] {
  return Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
}

test('off by default: no CORS header on any answer, preflights are not granted', async () => {
  const token = await off.token({ class: 'user' });
  const answers = [
    await off.request({ url: '/api/v4/tickets', headers: { origin: SHOP } }),
    await off.request({ url: '/api/v4/whoami', token, headers: { origin: SHOP } }),
    await off.request({ method: 'POST', url: '/api/v4/customers', token, headers: { origin: SHOP }, payload: {} }),
    await off.request({ url: '/api/v4/nothing-here', headers: { origin: SHOP } }),
  ];
  for (const res of answers) assert.deepEqual(corsHeaders(res), [], res.body);
  const pre = await off.request(preflight('GET'));
  assert.deepEqual(corsHeaders(pre), []);
  assert.equal(pre.statusCode, 405);
  assert.equal(pre.json().code, 'METHOD_NOT_ALLOWED');
});

test('configured origins may read: GET and HEAD get Access-Control-Allow-Origin, varying on Origin', async () => {
  for (const method of ['GET', 'HEAD'] as const) {
    const res = await on.request({ method, url: '/api/v4/tickets', headers: { origin: SHOP } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], SHOP, method);
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    assert.match(String(res.headers['access-control-expose-headers']), /X-Request-Id/);
    const vary = String(res.headers.vary).split(',').map((s) => s.trim());
    assert.ok(vary.includes('Origin'), `vary: ${res.headers.vary}`);
    // The caching plugin's own Vary entries (master data) survive next to Origin.
    assert.ok(res.headers.etag, 'tickets are cacheable master data');
    assert.ok(vary.includes('Authorization') && vary.includes('Accept-Language'), `vary: ${res.headers.vary}`);
  }
  const other = await on.request({ url: '/api/v4/tickets', headers: { origin: 'https://other.example:8443' } });
  assert.equal(other.headers['access-control-allow-origin'], 'https://other.example:8443');
  // Errors are readable too, so a page can show why.
  const missing = await on.request({ url: '/api/v4/tickets/999999', headers: { origin: SHOP } });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.headers['access-control-allow-origin'], SHOP);
});

test('other origins, writes and requests without Origin get no CORS headers', async () => {
  const token = await on.token({ class: 'user' });
  for (const origin of [EVIL, 'http://shop.example', `${SHOP}.evil.example`, 'null']) {
    const res = await on.request({ url: '/api/v4/tickets', headers: { origin } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
  }
  const write = await on.request({
    method: 'POST',
    url: '/api/v4/customers',
    token,
    headers: { origin: SHOP },
    payload: { name: 'Ada', surname: 'Cors', email: 'ada@example.org' },
  });
  assert.equal(write.statusCode, 201);
  assert.deepEqual(corsHeaders(write), [], 'a browser may not read the answer of a cross-origin write');
  const plain = await on.request({ url: '/api/v4/tickets' });
  assert.deepEqual(corsHeaders(plain), []);
});

test('preflights: reads from a configured origin are granted without Authorization; nothing else', async () => {
  const ok = await on.request(preflight('GET', SHOP, 'accept-language'));
  assert.equal(ok.statusCode, 204);
  assert.equal(ok.headers['access-control-allow-origin'], SHOP);
  assert.equal(ok.headers['access-control-allow-methods'], 'GET, HEAD');
  const allowedHeaders = String(ok.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
  assert.ok(allowedHeaders.includes('accept-language'));
  assert.ok(!allowedHeaders.includes('authorization'), 'a browser must not be allowed to send a token');

  // Asking to send a token: the answer does not list Authorization, so the browser refuses.
  const withToken = await on.request(preflight('GET', SHOP, 'authorization'));
  assert.ok(!String(withToken.headers['access-control-allow-headers']).toLowerCase().includes('authorization'));

  for (const [method, origin] of [['POST', SHOP], ['PUT', SHOP], ['DELETE', SHOP], ['GET', EVIL]] as const) {
    const res = await on.request(preflight(method, origin));
    assert.deepEqual(corsHeaders(res), [], `${method} from ${origin}`);
    assert.equal(res.statusCode, 405, `${method} from ${origin}`);
  }
});

test('with CORS on, unknown routes are still 404 and a bare OPTIONS is still 405', async () => {
  const unknown = await on.request({ url: '/api/v4/nothing-here' });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().code, 'ROUTE_INVALID');
  const bare = await on.request({ method: 'OPTIONS', url: '/api/v4/tickets', headers: { origin: SHOP } });
  const bareOff = await off.request({ method: 'OPTIONS', url: '/api/v4/tickets', headers: { origin: SHOP } });
  assert.equal(bare.statusCode, 405);
  assert.equal(bare.headers.allow, bareOff.headers.allow);
  assert.doesNotMatch(String(bare.headers.allow), /OPTIONS/);
  const wrongMethod = await on.request({ method: 'DELETE', url: '/api/v4/tickets' });
  assert.equal(wrongMethod.statusCode, 405);
  assert.doesNotMatch(String(wrongMethod.headers.allow), /OPTIONS/);
});

test('ATRIUM_CORS_ORIGINS must list bare origins', () => {
  for (const bad of ['shop.example', 'https://shop.example/', 'https://shop.example/path', 'ftp://shop.example']) {
    assert.throws(() => loadConfig({ ATRIUM_CORS_ORIGINS: bad }), ConfigError, bad);
  }
  assert.deepEqual(loadConfig({ ATRIUM_CORS_ORIGINS: `${SHOP},*` }).corsOrigins, [SHOP, '*']);
});
