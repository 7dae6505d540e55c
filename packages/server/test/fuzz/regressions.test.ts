// Inputs the contract fuzzer found answered with a 500, pinned as plain tests: values that pass
// the schemas but cannot reach PostgreSQL (Infinity coerced from "1e999", NUL characters).
import { after, describe, test } from 'node:test';
import { assertError } from '../contract/error-shape.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp();
after(() => t.close());
const user = await t.token({ class: 'user' });

describe('fuzzer regressions', () => {
  for (const url of [
    '/api/v4/tours/1/start_times?language_id=1e999',
    '/api/v4/museums/1e999',
    '/api/v4/tickets?by_museum_ids[]=Infinity',
    '/api/v4/customers?email=a%00b',
    '/api/v4/tickets/reservations/%00',
    '/api/v4/requests?updated_since=%2B275760-09-13T00%3A00%3A00Z',
    '/api/v4/requests?updated_since=0000-01-01',
  ]) {
    test(`${url} is a 422`, async () => {
      const method = url.includes('/reservations/') ? 'DELETE' : 'GET';
      assertError(await t.request({ method, url, token: user }), 422, 'VALIDATION_FAILED');
    });
  }

  test('a quantity of "Infinity" in a body is a 422', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v4/tickets/reservations', token: user, payload: { date_id: 1, quantity: 'Infinity' } });
    assertError(res, 422, 'VALIDATION_FAILED');
  });

  test('an array for a nullable string is a 422, never passed on to the handler (was a 500)', async () => {
    const staff = await t.token({ class: 'user', rights: ['requests:write', 'requests:read'] });
    for (const reason of [['x'], ['x', 'y'], []]) {
      const res = await t.request({ method: 'POST', url: '/api/v4/requests/999999/decline', token: staff, payload: { reason } });
      assertError(res, 422, 'VALIDATION_FAILED');
    }
  });

  test('null stays null in a nullable number (a closed date is not capacity 0)', async () => {
    const staff = await t.token({ class: 'user', rights: ['catalog:write', 'catalog:read'] });
    const museum = await f.museum(t.database.db);
    const quota = await f.quota(t.database.db, { museumId: museum.id, capacity: 10 });
    const closed = await t.request({ method: 'PUT', url: `/api/v4/quotas/${quota.id}/overrides/2030-01-01`, token: staff, payload: { override: { capacity: null } } });
    if (closed.statusCode !== 200) throw new Error(`status ${closed.statusCode}: ${closed.body}`);
    const override = closed.json().quota.overrides.find((o: { date: string }) => o.date === '2030-01-01');
    if (override?.capacity !== null) throw new Error(`override ${JSON.stringify(override)}`);
  });

  test('an unknown query parameter is still ignored, whatever it holds', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v4/version?x=%00' });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
  });
});
