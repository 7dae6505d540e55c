import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { signIn, staffUser } from './support.ts';

const t = await testApp();
after(() => t.close());

test('sign in and see the account page', async () => {
  const u = await staffUser(t, 'admin');
  const b = await signIn(t, u.email);
  const res = await b.get('/console/account');
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['content-security-policy'] as string, /default-src 'self'/);
  assert.match(res.body, /Signed in as/);
});
