// Inputs the contract fuzzer found answered with a 500, pinned as plain tests: values that pass
// the schemas but cannot reach PostgreSQL (Infinity coerced from "1e999", NUL characters).
import { after, describe, test } from 'node:test';
import { assertError } from '../contract/error-shape.ts';
import { testApp } from '../helpers/app.ts';

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

  test('an unknown query parameter is still ignored, whatever it holds', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v4/version?x=%00' });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
  });
});
