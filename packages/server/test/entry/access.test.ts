// Entry tokens (docs/api-contract.md §14): created museum-scoped, and admitted only by the scan routes. The
// walk below tries every documented route with an entry token, so a route added later that lists
// `entry` by accident (or copies a class list that includes it) fails here.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';

const t = await testApp();
after(() => t.close());

/** The routes a scanner may call, and nothing else. */
const ENTRY_ROUTES = new Set([
  'POST /api/v4/scans', 'GET /api/v4/scans', 'GET /api/v4/scans/manifest', 'GET /api/v4/occupancy', 'GET /api/v4/whoami',
  // go~mus v4 entry calls (docs/gomus-compatibility.md).
  'GET /api/v4/entry/scans/:id', 'PUT /api/v4/entry/scans/:id', 'GET /api/v4/entry/config',
]);

describe('entry tokens', () => {
  test('need a museum scope', async () => {
    await assert.rejects(createToken({ db: t.database.db, clock: t.clock }, { class: 'entry', name: 'Gate' }), /entry tokens need --museums/);
  });

  test('whoami names the class and the museums', async () => {
    const token = await t.token({ class: 'entry', museumIds: [5] });
    const r = await t.request({ method: 'GET', url: '/api/v4/whoami', token });
    assert.deepEqual(r.json(), { access: 'entry', museums: [5] });
  });

  test('every other route answers 403, documented or not', async () => {
    const token = await t.token({ class: 'entry', museumIds: [1] });
    const doc = (await t.request({ method: 'GET', url: '/api-docs/openapi.json' })).json();
    let walked = 0;
    for (const [path, ops] of Object.entries<Record<string, { 'x-token-classes'?: string[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const key = `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, (m) => `:${m.slice(1, -1)}`)}`;
        const admitted = (op['x-token-classes'] ?? []).includes('entry');
        assert.equal(admitted, ENTRY_ROUTES.has(key) || key.startsWith('GET /api/v3/barcodes') || key.startsWith('PUT /api/v3/barcodes'), `${key} x-token-classes`);
        if (admitted) continue;
        const url = path.replace(/\{[^}]+\}/g, '1');
        const r = await t.request({ method: method.toUpperCase() as 'GET', url, token, ...(method === 'get' || method === 'delete' ? {} : { payload: {} }) });
        assert.equal(r.statusCode, 403, `${key} -> ${r.statusCode} ${r.body}`);
        walked++;
      }
    }
    assert.ok(walked > 40, `walked ${walked} routes`);
    for (const url of ['/healthz', '/readyz', '/api-docs/openapi.json']) {
      assert.equal((await t.request({ method: 'GET', url, token })).statusCode, 403, url);
    }
  });
});
