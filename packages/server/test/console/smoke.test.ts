// The console lives in its own encapsulated context: its pages get the console CSP, the API keeps
// its own headers and parsers (no form bodies, no cookie sessions) — the hot path gains nothing.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { API_CSP } from '../../src/http/api/plugins/security.ts';
import { testApp } from '../helpers/app.ts';
import { signIn, staffUser } from './support.ts';

const t = await testApp();
after(() => t.close());

test('sign in and see the account page under the console CSP', async () => {
  const u = await staffUser(t, 'admin');
  const b = await signIn(t, u.email);
  const res = await b.get('/console/account');
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['content-security-policy'] as string, /default-src 'self'/);
  assert.match(res.body, /Signed in as/);
});

test('the API is untouched: its CSP, no form parser, a console cookie is no credential', async () => {
  const u = await staffUser(t, 'admin');
  const b = await signIn(t, u.email);
  const who = await t.app.inject({ method: 'GET', url: '/api/v4/whoami', cookies: b.cookies });
  assert.equal(who.statusCode, 200);
  assert.equal(who.headers['content-security-policy'], API_CSP);
  assert.deepEqual(who.json(), { access: 'public', museums: [] });
  const token = await t.token({ class: 'user' });
  const form = await t.app.inject({ method: 'POST', url: '/api/v4/orders', cookies: b.cookies, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
  assert.equal(form.statusCode, 415);
  assert.equal(form.json().code, 'UNSUPPORTED_MEDIA_TYPE');
});
