// Set-password links (docs/console.md, "Staff users"): an admin's reset and a new user made in the
// console give a link, shown once and mailed in the user's language; its page (no sign-in, strict
// CSP, no Referer) sets a password under the usual policy, ends every session of the user, is
// audited and sends the user to sign-in. A used, expired, replaced, altered or unknown link and a
// refused entry change nothing; attempts are limited per client address.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createSession } from '../../src/domain/staff/sessions.ts';
import { CONSOLE_CSP } from '../../src/http/console/routes/security.ts';
import { maskUrl } from '../../src/http/api/plugins/request-log.ts';
import { testApp } from '../helpers/app.ts';
import { linkOf, pathOf, setPasswordThrough } from './passwordLinks.ts';
import { anonymousBrowser, csrfOf, PASSWORD, signIn, staffUser, type Browser } from './support.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-setpw-'));
const t = await testApp({ env: { ATRIUM_DATA_DIR: dataDir } });
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const db = t.database.db;
let admin: Browser;
let ip = 0;
/** A fresh client address per test, so the per-address limit only counts that test's tries. */
const nextIp = () => `10.0.0.${++ip}`;

const hashOf = async (id: number) => (await db.execute<{ password_hash: string }>(sql`select password_hash from staff_users where id = ${id}`)).rows[0]!.password_hash;
const actions = async (id: number) =>
  (await db.execute<{ action: string; actor: string }>(sql`select action, actor from audit_log where entity_type = 'staff_user' and entity_id = ${String(id)} order by id`)).rows;
/** The .eml files written for a recipient (no SMTP_URL in tests), soft line breaks undone. */
const mailsTo = (email: string) =>
  fs.existsSync(path.join(dataDir, 'mail'))
    ? fs.readdirSync(path.join(dataDir, 'mail')).map((f) => fs.readFileSync(path.join(dataDir, 'mail', f), 'utf8').replace(/=\r?\n/g, '')).filter((m) => m.includes(`To: ${email}`))
    : [];
async function reset(id: number): Promise<string> {
  const res = await admin.post(`/console/staff/${id}/password`, { confirm: '1' });
  assert.equal(res.statusCode, 200, res.body.slice(0, 400));
  return linkOf(res.body)!;
}
async function canSignIn(email: string, password: string): Promise<boolean> {
  const b = anonymousBrowser(t);
  const page = await b.get('/console/login');
  return (await b.post('/console/login', { email, password }, { csrf: csrfOf(page.body) })).statusCode === 303;
}

before(async () => {
  admin = await signIn(t, (await staffUser(t, 'admin', [], 'chefin@museum.example')).email);
});

test('reset → link → set: the new password signs in, the old one and every session end', async () => {
  const user = await staffUser(t, 'box_office', [], 'anna@museum.example');
  const old = await signIn(t, user.email);
  const res = await admin.post(`/console/staff/${user.id}/password`, { confirm: '1' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  const link = linkOf(res.body)!;
  assert.match(link, /^http:\/\/localhost(:\d+)?\/console\/set-password\/[A-Za-z0-9_-]{43}$/, 'an absolute link with a 256-bit token');
  assert.match(res.body, /has been sent by email to anna@museum\.example/);
  assert.equal((await old.get('/console/day')).statusCode, 303, 'the reset ended the sessions');
  assert.equal(await canSignIn(user.email, PASSWORD), false, 'the old password stopped working at once');
  // The mail: to the user, in their language (English), with the link.
  const [mail] = mailsTo(user.email);
  assert.ok(mail, 'a mail was written');
  assert.match(mail, /Subject: New password for the Atrium console/);
  assert.ok(mail.includes(link), 'the mail carries the link');
  const token = link.split('/').pop()!;
  assert.equal((await db.execute(sql`select 1 from staff_password_links where token_hash = ${token}`)).rows.length, 0, 'the token is not stored, only its hash');

  // A session made after the reset (another device) must end too.
  const later = await createSession({ db, clock: t.clock }, user.id);
  const page = await t.app.inject({ method: 'GET', url: pathOf(link), remoteAddress: nextIp() });
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['content-security-policy'], CONSOLE_CSP);
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  assert.match(page.body, /<html lang="en">/, 'the user’s language');
  assert.match(page.body, /Set the password for anna@museum\.example/);
  assert.match(page.body, /autocomplete="new-password"/);
  const de = await t.app.inject({ method: 'GET', url: `${pathOf(link)}?lang=de`, remoteAddress: nextIp() });
  assert.match(de.body, /Legen Sie das Passwort für anna@museum\.example fest/);

  const set = await setPasswordThrough(t, link, 'a brand new secret', 'a brand new secret', nextIp());
  assert.equal(set.statusCode, 303, set.body.slice(0, 300));
  assert.equal(set.headers.location, '/console/login?lang=en&notice=passwordset');
  const login = await t.app.inject({ method: 'GET', url: set.headers.location as string });
  assert.match(login.body, /Your password has been saved/);
  assert.equal((await t.app.inject({ method: 'GET', url: '/console/day', cookies: { atrium_console: later.id } })).statusCode, 303, 'sessions ended');
  assert.ok(await canSignIn(user.email, 'a brand new secret'));
  assert.deepEqual((await actions(user.id)).slice(-2), [
    { action: 'staff_user.reset_password', actor: 'chefin@museum.example' },
    { action: 'staff_user.set_password', actor: 'anna@museum.example' },
  ]);
  const audit = await admin.get('/console/audit?action=staff_user.set_password');
  assert.match(audit.body, /Password set through a link/);
  assert.ok(!audit.body.includes(token), 'no token in the audit log');
});

test('a used link is refused and changes nothing', async () => {
  const user = await staffUser(t, 'viewer');
  const link = await reset(user.id);
  const addr = nextIp();
  assert.equal((await setPasswordThrough(t, link, 'first new password', 'first new password', addr)).statusCode, 303);
  const hash = await hashOf(user.id);
  const again = await setPasswordThrough(t, link, 'second new password', 'second new password', addr);
  assert.equal(again.statusCode, 404);
  assert.match(again.body, /This link does not work \(any more\)/);
  assert.equal((await t.app.inject({ method: 'GET', url: pathOf(link), remoteAddress: addr })).statusCode, 404);
  assert.equal(await hashOf(user.id), hash);
  assert.ok(await canSignIn(user.email, 'first new password'));
});

test('an expired link is refused and changes nothing', async () => {
  const user = await staffUser(t, 'viewer');
  const link = await reset(user.id);
  const hash = await hashOf(user.id);
  const start = t.clock.now();
  try {
    t.clock.advance(24 * 60 * 60_000 - 60_000);
    assert.equal((await t.app.inject({ method: 'GET', url: pathOf(link), remoteAddress: nextIp() })).statusCode, 200, 'still live a minute before');
    t.clock.advance(2 * 60_000);
    const addr = nextIp();
    const page = await t.app.inject({ method: 'GET', url: pathOf(link), remoteAddress: addr, headers: { 'accept-language': 'de' } });
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /Dieser Link gilt nicht \(mehr\)/);
    assert.equal((await setPasswordThrough(t, link, 'too late password', 'too late password', addr)).statusCode, 404);
    assert.equal(await hashOf(user.id), hash);
  } finally {
    t.clock.set(start);
  }
});

test('two different entries or a short password are refused; nothing changes and the link still works', async () => {
  const user = await staffUser(t, 'viewer');
  const link = await reset(user.id);
  const hash = await hashOf(user.id);
  const addr = nextIp();
  const mismatch = await setPasswordThrough(t, link, 'one new password', 'another password', addr);
  assert.equal(mismatch.statusCode, 422);
  assert.match(mismatch.body, /The two entries do not match/);
  assert.match(mismatch.body, /aria-describedby="setpw-error"/);
  const short = await setPasswordThrough(t, link, 'short', 'short', addr, 'de');
  assert.equal(short.statusCode, 422);
  assert.match(short.body, /mindestens 10 Zeichen/);
  assert.equal(await hashOf(user.id), hash);
  assert.equal((await actions(user.id)).at(-1)!.action, 'staff_user.reset_password', 'no audit entry for a refusal');
  assert.equal((await setPasswordThrough(t, link, 'one new password', 'one new password', addr)).statusCode, 303);
});

test('an altered, unknown or malformed token and a replaced link are refused', async () => {
  const user = await staffUser(t, 'viewer');
  const first = await reset(user.id);
  const second = await reset(user.id);
  const hash = await hashOf(user.id);
  const token = second.split('/').pop()!;
  const altered = `/console/set-password/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
  for (const url of [first, altered, '/console/set-password/abc', `/console/set-password/${'x'.repeat(43)}`, `/console/set-password/${token}x`]) {
    const addr = nextIp();
    assert.equal((await t.app.inject({ method: 'GET', url: pathOf(url), remoteAddress: addr })).statusCode, 404, url);
    assert.equal((await setPasswordThrough(t, url, 'any new password', 'any new password', addr)).statusCode, 404, url);
  }
  assert.equal(await hashOf(user.id), hash);
  assert.equal((await setPasswordThrough(t, second, 'the newest link', 'the newest link', nextIp())).statusCode, 303, 'the newest link works');
});

test('a new user made in the console gets a link (mailed in German), no password', async () => {
  const res = await admin.post('/console/staff', { name: 'Jörg', email: 'joerg@museum.example', role: 'viewer', locale: 'de' });
  assert.equal(res.statusCode, 200, res.body.slice(0, 400));
  const link = linkOf(res.body)!;
  assert.match(link, /\/console\/set-password\//);
  const [mail] = mailsTo('joerg@museum.example');
  assert.match(mail!, /Subject: Ihr Zugang zur Atrium-Konsole/);
  assert.ok(mail!.includes(link));
  const page = await t.app.inject({ method: 'GET', url: pathOf(link), remoteAddress: nextIp() });
  assert.match(page.body, /<html lang="de">/);
  assert.equal((await setPasswordThrough(t, link, 'joergs own password', 'joergs own password', nextIp(), 'de')).statusCode, 303);
  assert.ok(await canSignIn('joerg@museum.example', 'joergs own password'));
});

test('attempts are limited per client address', async () => {
  const user = await staffUser(t, 'viewer');
  const link = await reset(user.id);
  const addr = nextIp();
  for (let i = 0; i < 10; i++) {
    assert.equal((await t.app.inject({ method: 'GET', url: `/console/set-password/${'y'.repeat(43)}`, remoteAddress: addr })).statusCode, 404);
  }
  const refused = await t.app.inject({ method: 'GET', url: pathOf(link), remoteAddress: addr });
  assert.equal(refused.statusCode, 429, 'even a live link, from this address');
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.equal((await setPasswordThrough(t, link, 'from the same address', 'from the same address', addr)).statusCode, 429);
  const hash = await hashOf(user.id);
  assert.equal((await setPasswordThrough(t, link, 'from another address', 'from another address', nextIp())).statusCode, 303, 'control: another address');
  assert.notEqual(await hashOf(user.id), hash);
});

test('request logs mask the token of a set-password link', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
  assert.equal(maskUrl(`/console/set-password/${token}`), '/console/set-password/****');
  assert.equal(maskUrl(`/console/set-password/${token}?lang=de`), '/console/set-password/****?lang=de');
  assert.equal(maskUrl(`/console/set-password%2F${token}`), '/console/set-password%2F****');
});
