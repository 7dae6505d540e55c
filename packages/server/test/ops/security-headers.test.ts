// Browser-hardening headers on API answers, the Swagger UI page left working, HSTS only when the
// operator says TLS is in front, and the server's timeouts as configured.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { API_CSP, HSTS } from '../../src/http/api/plugins/security.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
const tls = await testApp({ env: { ATRIUM_HSTS: '1' } });
after(() => Promise.all([t.close(), tls.close()]));

function assertHardened(res: { headers: Record<string, unknown> }, what: string) {
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.equal(res.headers['content-security-policy'], API_CSP, what);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
  assert.equal(typeof res.headers['x-request-id'], 'string', what);
}

test('API answers carry the hardening headers: success, error, unknown route, health', async () => {
  const token = await t.token({ class: 'user' });
  const answers = {
    list: await t.request({ url: '/api/v4/tickets' }),
    whoami: await t.request({ url: '/api/v4/whoami', token }),
    unauthorized: await t.request({ url: '/api/v4/whoami', headers: { authorization: 'Bearer nope' } }),
    unknown: await t.request({ url: '/api/v4/no-such-thing' }),
    validation: await t.request({ url: '/api/v4/tickets?per_page=abc' }),
    readyz: await t.request({ url: '/readyz' }),
  };
  assert.equal(answers.list.statusCode, 200);
  assert.equal(answers.whoami.statusCode, 200);
  assert.equal(answers.unauthorized.statusCode, 401);
  assert.equal(answers.unknown.statusCode, 404);
  assert.equal(answers.validation.statusCode, 422);
  for (const [what, res] of Object.entries(answers)) {
    assertHardened(res, what);
    assert.equal(res.headers['strict-transport-security'], undefined, `${what}: no HSTS unless ATRIUM_HSTS=1`);
  }
});

test('Swagger UI still renders under /api-docs with its own policy, not the API one', async () => {
  const page = await t.request({ url: '/api-docs' });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.match(page.body, /swagger/i);
  const csp = String(page.headers['content-security-policy']);
  assert.notEqual(csp, API_CSP);
  assert.match(csp, /script-src 'self'/, 'Swagger UI may load its own scripts');
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  // The page's scripts and the document it loads are served too.
  const scripts = [...page.body.matchAll(/src="(\/api-docs\/[^"]+\.js)"/g)].map((m) => m[1]!);
  assert.ok(scripts.length >= 2, page.body);
  for (const src of scripts) {
    const script = await t.request({ url: src });
    assert.equal(script.statusCode, 200, src);
  }
  const doc = await t.request({ url: '/api-docs/openapi.json' });
  assert.equal(doc.statusCode, 200);
  assert.equal(doc.json().openapi, '3.1.0');
});

test('ATRIUM_HSTS=1 adds Strict-Transport-Security to every answer', async () => {
  for (const url of ['/api/v4/tickets', '/api/v4/no-such-thing', '/healthz']) {
    const res = await tls.request({ url });
    assert.equal(res.headers['strict-transport-security'], HSTS, url);
    assertHardened(res, url);
  }
});

test('slow clients are cut off: socket, header, request and keep-alive timeouts', async () => {
  await t.app.ready();
  const server = t.app.server;
  assert.equal(server.timeout, 30_000, 'connectionTimeout');
  assert.equal(server.headersTimeout, 20_000);
  assert.equal(server.requestTimeout, 60_000);
  assert.equal(server.keepAliveTimeout, 72_000);
  assert.ok(server.headersTimeout <= server.requestTimeout, 'Node requires headersTimeout ≤ requestTimeout');
});
