// Console sessions: idle and absolute expiry, sign-out, sign-out everywhere (every device at
// once), a password change keeps only the session that made it, and the hourly purge removes
// ended sessions and old sign-in attempts. Only a hash of the session id is stored.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { purgeLoginAttempts } from '../../src/domain/staff/authenticate.ts';
import { purgeSessions, sessionHash } from '../../src/domain/staff/sessions.ts';
import { testApp } from '../helpers/app.ts';
import { anonymousBrowser, PASSWORD, signIn, staffUser } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const signedIn = async (b: { get(u: string): Promise<{ statusCode: number }> }) => (await b.get('/console/account')).statusCode === 200;

test('the cookie is not stored, only its hash', async () => {
  const u = await staffUser(t, 'viewer');
  const b = await signIn(t, u.email);
  const id = b.cookies.atrium_console!;
  const rows = (await db.execute<{ id_hash: string }>(sql`select id_hash from staff_sessions`)).rows.map((r) => r.id_hash);
  assert.ok(rows.includes(sessionHash(id)));
  assert.ok(!rows.includes(id));
});

test('idle for 2 hours or 12 hours after sign-in: signed out; use keeps it alive until then', async () => {
  const u = await staffUser(t, 'viewer');
  const idle = await signIn(t, u.email);
  const busy = await signIn(t, u.email);
  for (let h = 0; h < 11; h++) {
    t.clock.advance(60 * 60_000);
    assert.ok(await signedIn(busy), `busy after ${h + 1} h`);
  }
  assert.equal(await signedIn(idle), false, 'idle for 11 h');
  t.clock.advance(61 * 60_000);
  assert.equal(await signedIn(busy), false, 'absolute limit');
});

test('sign out ends one session; sign out everywhere ends all of them', async () => {
  const u = await staffUser(t, 'box_office');
  const [a, b, c] = [await signIn(t, u.email), await signIn(t, u.email), await signIn(t, u.email)];
  assert.equal((await a.post('/console/logout', {})).statusCode, 303);
  assert.equal(await signedIn(a), false);
  assert.ok(await signedIn(b));
  assert.equal((await b.post('/console/logout-everywhere', {})).statusCode, 303);
  assert.equal(await signedIn(b), false);
  assert.equal(await signedIn(c), false, 'the other device too');
});

test('changing the password keeps this session and ends the others', async () => {
  const u = await staffUser(t, 'manager');
  const here = await signIn(t, u.email);
  const there = await signIn(t, u.email);
  const wrong = await here.post('/console/account/password', { current: 'not it at all', next: 'a new long password', repeat: 'a new long password' });
  assert.equal(wrong.statusCode, 422);
  assert.match(wrong.body, /the current password is wrong/);
  const res = await here.post('/console/account/password', { current: PASSWORD, next: 'a new long password', repeat: 'a new long password' });
  assert.equal(res.statusCode, 303);
  assert.ok(await signedIn(here));
  assert.equal(await signedIn(there), false);
  await signIn(t, u.email, 'a new long password');
  const old = anonymousBrowser(t);
  const page = await old.get('/console/login');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  assert.equal((await old.post('/console/login', { email: u.email, password: PASSWORD }, { csrf })).statusCode, 401);
});

test('the purge removes sessions ended a day ago and attempts outside the window', async () => {
  const ctx = { db, clock: t.clock };
  const n = async (table: string) => (await db.execute<{ n: number }>(sql.raw(`select count(*)::int n from ${table}`))).rows[0]!.n;
  const u = await staffUser(t, 'viewer');
  const live = await signIn(t, u.email);
  assert.ok((await n('staff_sessions')) > 1 && (await n('staff_login_attempts')) > 0);
  await purgeSessions(ctx);
  await purgeLoginAttempts(ctx);
  assert.ok(await signedIn(live), 'a live session stays');
  t.clock.advance(13 * 60 * 60_000 + 24 * 60 * 60_000);
  await purgeSessions(ctx);
  await purgeLoginAttempts(ctx);
  assert.equal(await n('staff_sessions'), 0);
  assert.equal(await n('staff_login_attempts'), 0);
});

test('after sign-in the page asked for opens; never another site', async () => {
  const u = await staffUser(t, 'viewer');
  for (const [next, expected] of [['/console/orders?q=abc', '/console/orders?q=abc'], ['https://evil.example/', '/console/day'], ['//evil.example/console/', '/console/day']] as const) {
    const b = anonymousBrowser(t);
    const page = await b.get(`/console/login?next=${encodeURIComponent(next)}`);
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const res = await b.post(action, { email: u.email, password: PASSWORD }, { csrf });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, expected, next);
  }
});
