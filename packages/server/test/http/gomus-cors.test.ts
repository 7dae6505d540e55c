// go~mus browser shops send `X-Shop-Url` on their reads (docs/gomus-compatibility.md): with CORS
// on, a read's preflight grants it; writes and tokens stay refused (src/http/api/plugins/cors.ts).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';

const SHOP = 'https://shop.example';
const t = await testApp({ env: { ATRIUM_CORS_ORIGINS: SHOP } });
after(() => t.close());

const preflight = (method: string, requestHeaders: string) =>
  t.request({
    method: 'OPTIONS',
    url: '/api/v4/tickets',
    headers: { origin: SHOP, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders },
  });

test('a read preflight with X-Shop-Url is granted, and the read itself answers with CORS headers', async () => {
  const res = await preflight('GET', 'x-shop-url');
  assert.equal(res.statusCode, 204);
  assert.equal(res.headers['access-control-allow-origin'], SHOP);
  const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
  assert.ok(allowed.includes('x-shop-url'), String(res.headers['access-control-allow-headers']));
  assert.ok(!allowed.includes('authorization'));
  const read = await t.request({ method: 'GET', url: '/api/v4/tickets', headers: { origin: SHOP, 'x-shop-url': 'demo-shop.gomus.de' } });
  assert.equal(read.statusCode, 200);
  assert.equal(read.headers['access-control-allow-origin'], SHOP);
});

test('writes with X-Shop-Url stay server to server: their preflight gets no CORS headers', async () => {
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const res = await preflight(method, 'x-shop-url, content-type');
    assert.equal(res.headers['access-control-allow-origin'], undefined, method);
    assert.equal(res.headers['access-control-allow-headers'], undefined, method);
  }
});
