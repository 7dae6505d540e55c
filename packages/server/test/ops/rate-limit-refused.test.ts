// A wrong or malformed bearer token is answered 401 by auth before the rate limit's own check;
// it still counts against the anonymous budget of its address, so guessing tokens is limited
// like anonymous requests: 401 until the budget is spent, then 429 with Retry-After.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ env: { ATRIUM_ANON_RATE_LIMIT: '3' } });
after(() => t.close());
const from = (ip: string, authorization?: string, url = '/api/v4/whoami') =>
  t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: authorization ? { authorization } : {} });

test('a client hammering with a wrong token gets 401 up to the anonymous limit, then 429', async () => {
  const codes = [];
  for (let i = 0; i < 5; i++) codes.push((await from('10.20.0.1', `Bearer wrong-token-${i}`)).statusCode);
  assert.deepEqual(codes, [401, 401, 401, 429, 429]);
  const limited = await from('10.20.0.1', 'Bearer yet-another-guess');
  assert.equal(limited.json().code, 'RATE_LIMITED');
  const retryAfter = Number(limited.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
  assert.doesNotMatch(limited.body, /yet-another-guess/);
  // The same budget as anonymous requests from that address.
  assert.equal((await from('10.20.0.1')).statusCode, 429);
  // Control: another address is not affected; a valid token from the limited address is not either.
  assert.equal((await from('10.20.0.2', 'Bearer wrong-token')).statusCode, 401);
  const good = await t.token({ class: 'reseller' });
  assert.equal((await from('10.20.0.1', `Bearer ${good}`)).statusCode, 200);
});

test('malformed Authorization headers and anonymous calls to protected routes count too', async () => {
  const codes = [];
  for (let i = 0; i < 2; i++) codes.push((await from('10.21.0.1', 'Basic dXNlcjpwYXNz')).statusCode);
  for (let i = 0; i < 2; i++) codes.push((await from('10.21.0.1', undefined, '/api/v4/orders')).statusCode);
  assert.deepEqual(codes, [401, 401, 401, 429]);
});
