// Staff users in the console (admins): created with a name, role and museums (a set-password link
// shown once, never cached, that sets the password the user signs in with), a password reset
// after a confirmation page (the old password stops working; a new link), disabled after
// a confirmation page (sessions end, sign-in refused) and enabled again; each change audited with
// the admin as actor. A scoped admin manages only users of their museums; managers are refused.
// The audit log page reads as who / what / changed fields, filtered by where a change came from.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { linkOf, setPasswordThrough } from './passwordLinks.ts';
import { anonymousBrowser, csrfOf, signIn, staffUser, type Browser } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
let museumA: number, museumB: number;
let admin: Browser, adminA: Browser, manager: Browser;
let adminId = 0;
/** Sets a password through the link on an admin's page; the password. */
async function passwordFrom(html: string, password = `pw-${Math.random().toString(36).slice(2)}-long`) {
  const link = linkOf(html);
  assert.ok(link, 'a set-password link on the page');
  const res = await setPasswordThrough(t, link, password);
  assert.equal(res.statusCode, 303, res.body.slice(0, 400));
  return password;
}
const entries = async () =>
  (await db.execute<{ actor: string; action: string; staff_user_id: number | null; entity_id: string; after: Record<string, unknown> | null }>(sql`select * from audit_log where entity_type = 'staff_user' order by id`)).rows;
const userId = async (email: string) => (await db.execute<{ id: number }>(sql`select id from staff_users where email = ${email}`)).rows[0]!.id;

before(async () => {
  museumA = (await f.museum(db)).id;
  museumB = (await f.museum(db)).id;
  const a = await staffUser(t, 'admin', [], 'chef@museum.example');
  adminId = a.id;
  admin = await signIn(t, a.email);
  adminA = await signIn(t, (await staffUser(t, 'admin', [museumA])).email);
  manager = await signIn(t, (await staffUser(t, 'manager', [museumA])).email);
});

test('an admin creates a user; the set-password link is shown once and its password signs in', async () => {
  const page = await admin.get('/console/staff');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /href="\/console\/staff" aria-current="page"/, 'in the navigation');
  const res = await admin.post('/console/staff', { name: 'Erika <b>Muster</b>', email: 'erika@museum.example', role: 'box_office', museum_ids: String(museumA), locale: 'de' });
  assert.equal(res.statusCode, 200, res.body.slice(0, 600));
  assert.equal(res.headers['cache-control'], 'no-store');
  const link = linkOf(res.body)!;
  assert.match(link, /\/console\/set-password\/[A-Za-z0-9_-]{43}$/);
  const list = await admin.get('/console/staff');
  assert.ok(list.body.includes('Erika &lt;b&gt;Muster&lt;/b&gt;'), 'name escaped');
  assert.ok(!list.body.includes(link), 'never shown again');
  const password = await passwordFrom(res.body);
  const erika = await signIn(t, 'erika@museum.example', password);
  assert.equal((await erika.get('/console/sale')).statusCode, 200, 'box office role');
  assert.equal((await erika.get('/console/staff')).statusCode, 403);
  const [e] = (await entries()).filter((x) => x.action === 'staff_user.create' && x.staff_user_id === adminId);
  assert.equal(e!.actor, 'chef@museum.example');
  assert.equal(e!.after!.name, 'Erika <b>Muster</b>');
  assert.deepEqual(e!.after!.museum_ids, [museumA]);
  assert.ok(!JSON.stringify(await entries()).includes(password), 'no password in the log');
  assert.ok(!JSON.stringify(await entries()).includes(link.split('/').pop()!), 'no link in the log');
});

test('bad input is shown on the form with what was typed kept; nothing is created', async () => {
  const before = (await entries()).length;
  const res = await admin.post('/console/staff', { name: 'Max', email: 'not-an-email', role: 'viewer', museum_ids: String(museumB) });
  assert.equal(res.statusCode, 422);
  assert.match(res.body, /Email: please give a valid email address/);
  assert.match(res.body, /value="not-an-email"/);
  assert.match(res.body, /value="Max"/);
  assert.match(res.body, new RegExp(`id="sm-${museumB}" name="museum_ids" value="${museumB}" checked`));
  const dup = await admin.post('/console/staff', { email: 'ERIKA@museum.example', role: 'viewer' });
  assert.equal(dup.statusCode, 422);
  assert.match(dup.body, /already a sign-in with this email/);
  assert.equal((await entries()).length, before);
});

test('a password reset asks first, ends the sessions and shows a new link once', async () => {
  const id = await userId('erika@museum.example');
  const ask = await admin.post(`/console/staff/${id}/password`, {});
  assert.equal(ask.statusCode, 200);
  assert.match(ask.body, /name="confirm" value="1"/);
  assert.equal((await entries()).filter((e) => e.action === 'staff_user.reset_password').length, 0, 'asking changed nothing');
  const done = await admin.post(`/console/staff/${id}/password`, { confirm: '1' });
  assert.equal(done.statusCode, 200, done.body.slice(0, 400));
  assert.equal(done.headers['cache-control'], 'no-store');
  const fresh = await passwordFrom(done.body);
  await signIn(t, 'erika@museum.example', fresh);
  assert.equal((await entries()).filter((e) => e.action === 'staff_user.reset_password').length, 1);
});

test('disabling asks first, ends the sessions and refuses sign-in; enabling lets the user in again', async () => {
  const id = await userId('erika@museum.example');
  const done = await admin.post(`/console/staff/${id}/password`, { confirm: '1' });
  const password = await passwordFrom(done.body);
  const erika = await signIn(t, 'erika@museum.example', password);
  const ask = await admin.post(`/console/staff/${id}/disable`, {});
  assert.equal(ask.statusCode, 200);
  assert.match(ask.body, /Disable this sign-in\?/);
  assert.equal((await erika.get('/console/day')).statusCode, 200, 'the confirmation page changed nothing');
  const res = await admin.post(`/console/staff/${id}/disable`, { confirm: '1' });
  assert.equal(res.statusCode, 303);
  assert.match(res.headers.location as string, /notice=staffdisabled/);
  assert.equal((await erika.get('/console/day')).statusCode, 303, 'signed out');
  const a = anonymousBrowser(t);
  const login = await a.get('/console/login');
  assert.equal((await a.post('/console/login', { email: 'erika@museum.example', password }, { csrf: csrfOf(login.body) })).statusCode, 401);
  assert.match((await admin.get('/console/staff')).body, /disabled since/);
  assert.equal((await admin.post(`/console/staff/${id}/enable`, {})).statusCode, 303);
  await signIn(t, 'erika@museum.example', password);
  const log = (await entries()).filter((e) => e.entity_id === String(id)).map((e) => e.action);
  assert.deepEqual(log.slice(-2), ['staff_user.disable', 'staff_user.enable']);
  // Own account: no buttons, and the verb refuses.
  assert.equal((await admin.post(`/console/staff/${adminId}/disable`, { confirm: '1' })).statusCode, 403);
});

test('a scoped admin manages only users of their museums; a manager is refused', async () => {
  const wide = await staffUser(t, 'viewer', [museumB], 'nur-b@museum.example');
  assert.ok(!(await adminA.get('/console/staff')).body.includes('nur-b@museum.example'));
  assert.equal((await adminA.post(`/console/staff/${wide.id}/disable`, { confirm: '1' })).statusCode, 404);
  assert.equal((await adminA.post(`/console/staff/${wide.id}/password`, { confirm: '1' })).statusCode, 404);
  const all = await adminA.post('/console/staff', { email: 'everywhere@museum.example', role: 'viewer' });
  assert.equal(all.statusCode, 422, 'an all-museums user from a scoped admin');
  assert.match(all.body, /only museums you are responsible for/);
  assert.equal((await adminA.post('/console/staff', { email: 'ok-a@museum.example', role: 'viewer', museum_ids: String(museumA) })).statusCode, 200);
  assert.equal((await manager.get('/console/staff')).statusCode, 403);
  assert.equal((await manager.post('/console/staff', { email: 'm@museum.example', role: 'admin' })).statusCode, 403);
  assert.equal((await db.execute(sql`select 1 from staff_users where email in ('everywhere@museum.example', 'm@museum.example')`)).rows.length, 0);
});

test('the audit log reads as who, what and the changed fields; filtered by source and kind', async () => {
  const page = await admin.get('/console/audit?action=staff_user.disable');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /Staff sign-in disabled · <a href="\/console\/staff">Staff sign-in #\d+<\/a>/);
  assert.match(page.body, /Who: chef@museum\.example/);
  assert.match(page.body, /<th scope="row">disabled<\/th><td>no<\/td><td>yes<\/td>/);
  assert.ok(!page.body.includes('Staff sign-in created ·'), 'only the chosen kind');
  const created = await admin.get('/console/audit?action=staff_user.create&source=staff');
  assert.match(created.body, /<th scope="row">museum ids<\/th><td>\d+<\/td>/, 'a new object: after only');
  assert.ok(!created.body.includes('{&quot;'), 'no raw JSON');
  const cli = await admin.get('/console/audit?source=cli&action=staff_user.disable');
  assert.ok(!cli.body.includes('chef@museum.example</span>'), 'staff changes are not command-line changes');
});
