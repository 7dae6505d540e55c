// A NUL character in a console form or query (text columns cannot hold it) is answered with a
// clear page in the user's language, status 422, and changes nothing; never a 500.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { anonymousBrowser, csrfOf, PASSWORD, signIn, staffUser } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const count = async (table: string) => (await db.execute<{ n: number }>(sql.raw(`select count(*)::int n from ${table}`))).rows[0]!.n;
const CLEAR = /A field contains a control character \(NUL\) that cannot be stored\. Remove it and send the form again\. Nothing was changed\.|Ein Feld enthält ein Steuerzeichen \(NUL\), das nicht gespeichert werden kann\./;

test('a NUL in the sign-in form: a clear 422 page, no attempt recorded', async () => {
  const u = await staffUser(t, 'viewer');
  const b = anonymousBrowser(t);
  const page = await b.get('/console/login');
  const attempts = await count('staff_login_attempts');
  const res = await b.post('/console/login', { email: `${u.email}\u0000`, password: PASSWORD }, { csrf: csrfOf(page.body) });
  assert.equal(res.statusCode, 422, res.body.slice(0, 300));
  assert.match(res.body, CLEAR);
  assert.equal(await count('staff_login_attempts'), attempts);
});

test('a NUL in a signed-in form and in a search: the same page; the form works without it', async () => {
  const u = await staffUser(t, 'manager');
  const b = await signIn(t, u.email);
  const res = await b.post('/console/account/password', { current: PASSWORD, next: 'a new long\u0000 password', repeat: 'a new long\u0000 password' });
  assert.equal(res.statusCode, 422);
  assert.match(res.body, CLEAR);
  const search = await b.get('/console/orders?q=ab%00cd');
  assert.equal(search.statusCode, 422);
  assert.match(search.body, CLEAR);
  assert.equal((await b.get('/console/orders?q=abcd')).statusCode, 200, 'control: the search itself works');
});

test('German', async () => {
  const b = anonymousBrowser(t);
  const page = await b.get('/console/login?lang=de');
  const res = await b.post('/console/login?lang=de', { email: 'x\u0000@example.org', password: 'whatever-password', lang: 'de' }, { csrf: csrfOf(page.body) });
  assert.equal(res.statusCode, 422);
  assert.match(res.body, /Ein Feld enthält ein Steuerzeichen \(NUL\)/);
});
