// The per-account mail switch (docs/webhooks.md, "Email to visitors"): PUT|GET
// /api/v4/accounts/:id/notify_settings and `atrium account mail on|off`. With the switch off the
// account's group requests cause no visitor mail; on again, they do (the real worker writes .eml
// files, the default install's transport). Who may change it, and bad input, are checked too.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { runCli } from '../cli/cli.ts';
import { catalogue, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'atrium-mail-switch-'));
const t = await testApp({ env: { ATRIUM_DATA_DIR: dir } });
let worker: Worker;
let c: Catalogue;
after(async () => {
  await worker?.stop();
  await t.close();
  await rm(dir, { recursive: true, force: true });
});
const db = t.database.db;
let staff: string, staffAccount: number, admin: string, reseller: string, resellerAccount: number;
const lastAccount = async () => (await db.execute<{ id: number }>(sql`select max(id)::int id from accounts`)).rows[0]!.id;
const settings = (method: 'GET' | 'PUT', account: number, token: string, payload?: unknown) =>
  t.request({ method, url: `/api/v4/accounts/${account}/notify_settings`, token, ...(payload !== undefined ? { payload: payload as object } : {}) });
const emlFiles = async () => (await readdir(path.join(dir, 'mail')).catch(() => [] as string[])).filter((f) => f.endsWith('request_received.eml'));

async function request(email: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v4/requests',
    token: staff,
    payload: { date: c.at(660).slice(0, 10), participants: 12, items: [{ tour_id: c.tourId, start_time: c.at(660), language_id: c.langId }], customer: { name: 'Eva', surname: 'Ek', email, locale: 'de' } },
  });
  assert.equal(res.statusCode, 201, res.body);
  // Dispatched: the switch is read when the event fans out.
  await waitFor('dispatched', async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events where dispatch_pending`)).rows[0]!.n === 0, 60_000);
}
const mailsTo = async (email: string) => (await db.execute<{ status: string }>(sql`select status from mail_messages where recipient = ${email}`)).rows;

before(async () => {
  c = await catalogue(db);
  staff = await t.token({ class: 'user' });
  staffAccount = await lastAccount();
  admin = await t.token({ class: 'user', rights: ['webhooks:write'] });
  reseller = await t.token({ class: 'reseller' });
  resellerAccount = await lastAccount();
  worker = await testWorker(t, { dispatchIntervalMs: 50 });
});

describe('mail switch', () => {
  test('off through the API: no mail for the account; on through the CLI: mail again', async () => {
    assert.deepEqual((await settings('GET', staffAccount, admin)).json(), { notify_settings: { account_id: staffAccount, mail_enabled: true } });
    const off = await settings('PUT', staffAccount, admin, { notify_settings: { mail_enabled: false } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().notify_settings.mail_enabled, false);
    await request('off@example.org');
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await mailsTo('off@example.org'), []);
    assert.deepEqual(await emlFiles(), []);

    const env = { DATABASE_URL: t.database.url };
    const on = await runCli(['account', 'mail', 'on', String(staffAccount)], env, 120_000);
    assert.equal(on.code, 0, on.stderr);
    assert.equal(on.stdout.trim(), `account ${staffAccount}: visitor mail on`);
    await request('on@example.org');
    await waitFor('mail sent', async () => (await mailsTo('on@example.org'))[0]?.status === 'sent', 120_000).catch(async (err) => {
      // What the mail is waiting for, in the failure message.
      const mails = await db.execute(sql`select kind, recipient, status, attempt_count, last_error from mail_messages`);
      const jobs = await db.execute(sql`select task_identifier, attempts, run_at, locked_at, last_error from graphile_worker.jobs`);
      throw new Error(`${(err as Error).message}; mails: ${JSON.stringify(mails.rows)}; jobs: ${JSON.stringify(jobs.rows)}`);
    });
    assert.equal((await emlFiles()).length, 1);
    assert.deepEqual(await mailsTo('off@example.org'), [], 'turning it on does not send what was skipped');

    // The CLI by name, and its status; a bad state or an unknown account is one clear line.
    const name = (await db.execute<{ name: string }>(sql`select name from accounts where id = ${staffAccount}`)).rows[0]!.name;
    const offByName = await runCli(['account', 'mail', 'off', name], env, 120_000);
    assert.equal(offByName.code, 0, offByName.stderr);
    assert.equal((await settings('GET', staffAccount, admin)).json().notify_settings.mail_enabled, false);
    const bad = await runCli(['account', 'mail', 'maybe', String(staffAccount)], env, 120_000);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim(), 'atrium: mail must be on, off or status, got "maybe"');
    const unknown = await runCli(['account', 'mail', 'status', 'no such account'], env, 120_000);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account named "no such account"/);
  });

  test('who may: a reseller its own account only; users with the webhooks right over every museum', async () => {
    assert.equal((await settings('PUT', resellerAccount, reseller, { mail_enabled: false })).json().notify_settings.mail_enabled, false);
    assert.equal((await settings('GET', staffAccount, reseller)).statusCode, 404);
    const noRight = await t.token({ class: 'user', rights: ['orders:write'] });
    assert.equal((await settings('PUT', staffAccount, noRight, { mail_enabled: true })).statusCode, 403);
    const oneMuseum = await t.token({ class: 'user', rights: ['webhooks:write'], museumIds: [c.museumId] });
    assert.equal((await settings('PUT', staffAccount, oneMuseum, { mail_enabled: true })).statusCode, 403);
    assert.equal((await settings('GET', 99999, admin)).statusCode, 404);
    const pub = await t.token({ class: 'public' });
    assert.equal((await settings('GET', staffAccount, pub)).statusCode, 403);
    assert.equal((await t.request({ method: 'GET', url: `/api/v4/accounts/${staffAccount}/notify_settings` })).statusCode, 401);
  });

  test('bad input is a 422 in the error shape and changes nothing', async () => {
    const before = (await settings('GET', staffAccount, admin)).json().notify_settings.mail_enabled;
    for (const body of [{ mail_enabled: 'no' }, {}, { mail_enabled: true, extra: 1 }, { notify_settings: { mail_enabled: null } }]) {
      const res = await settings('PUT', staffAccount, admin, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.ok(res.json().error && res.json().code && res.json().request_id, res.body);
    }
    assert.equal((await settings('GET', staffAccount, admin)).json().notify_settings.mail_enabled, before);
  });
});
