// `atrium user …` against a real database: the printed password signs in to the console, emails
// are unique case-insensitively, --password-stdin, reset-password ends sessions, disable locks
// the user out, enable lets them in again, and each change is in the audit log as done at the
// command line by the OS user who ran it, which the console's audit log shows as such.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { cliEnv, lastLine, runCli, serverRoot } from '../cli/cli.ts';
import { testApp } from '../helpers/app.ts';
import { anonymousBrowser, signIn } from './support.ts';

const t = await testApp();
after(() => t.close());
const env = { DATABASE_URL: t.database.url, SUDO_USER: 'erika' };

function withStdin(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/atrium.js', ...args], { cwd: serverRoot, env: cliEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('create prints a password once that signs in; list shows the user', async () => {
  const r = await runCli(['user', 'create', '--email', 'Chef@Museum.example', '--name', 'Anna Chef', '--role', 'admin', '--locale', 'en'], env);
  assert.equal(r.code, 0, r.stderr);
  const password = lastLine(r.stdout);
  assert.match(password, /^[A-Za-z0-9]{20}$/);
  await signIn(t, 'chef@museum.example', password);
  const list = await runCli(['user', 'list'], env);
  assert.match(list.stdout, /Chef@Museum\.example \(Anna Chef\)\s+admin\s+museums: all/);
  assert.ok(!list.stdout.includes(password));
  const dup = await runCli(['user', 'create', '--email', 'CHEF@museum.example', '--role', 'viewer'], env);
  assert.notEqual(dup.code, 0);
  assert.match(dup.stderr, /a staff user with this email exists/);
  const bad = await runCli(['user', 'create', '--email', 'x@y.z', '--role', 'superuser'], env);
  assert.match(bad.stderr, /role must be admin, manager, box_office or viewer/);
});

test('--password-stdin, reset-password ends sessions, disable locks out; all audited', async () => {
  const c = await withStdin(['user', 'create', '--email', 'desk@museum.example', '--role', 'box_office', '--museums', '1', '--password-stdin'], 'a long desk password\n');
  assert.equal(c.code, 0, c.stderr);
  assert.ok(!c.stdout.includes('a long desk password'));
  const b = await signIn(t, 'desk@museum.example', 'a long desk password');
  const reset = await runCli(['user', 'reset-password', 'desk@museum.example'], env);
  assert.equal(reset.code, 0, reset.stderr);
  const fresh = lastLine(reset.stdout);
  const old = await b.get('/console/day');
  assert.equal(old.statusCode, 303, 'the old session ended');
  await signIn(t, 'desk@museum.example', fresh);
  const d = await runCli(['user', 'disable', 'desk@museum.example'], env);
  assert.equal(d.code, 0, d.stderr);
  const a = anonymousBrowser(t);
  const page = await a.get('/console/login');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const res = await a.post('/console/login', { email: 'desk@museum.example', password: fresh }, { csrf });
  assert.equal(res.statusCode, 401);
  const e = await runCli(['user', 'enable', 'desk@museum.example'], env);
  assert.equal(e.code, 0, e.stderr);
  await signIn(t, 'desk@museum.example', fresh);
  const log = await t.database.db.execute<{ actor: string; action: string; staff_user_id: number | null; after: { os_user?: string; name?: string } | null }>(sql`select actor, action, staff_user_id, after from audit_log order by id`);
  assert.deepEqual(log.rows.map((r) => `${r.actor} ${r.action}`), [
    'cli staff_user.create', 'cli staff_user.create', 'cli staff_user.reset_password', 'cli staff_user.disable', 'cli staff_user.enable',
  ]);
  assert.ok(log.rows.every((r) => r.staff_user_id === null && r.after?.os_user === 'erika'), JSON.stringify(log.rows));
  assert.equal(log.rows[0]!.after!.name, 'Anna Chef');
  assert.ok(!JSON.stringify(log.rows).includes(fresh), 'no password in the log');
  // The console shows these as made at the command line, and finds them by that source.
  const admin = await signIn(t, 'chef@museum.example', lastLine((await runCli(['user', 'reset-password', 'chef@museum.example'], env)).stdout));
  const audit = await admin.get('/console/audit?source=cli&action=staff_user.enable');
  assert.equal(audit.statusCode, 200);
  assert.match(audit.body, /Who: Command line \(erika\)/);
  assert.match(audit.body, /Staff sign-in enabled/);
  assert.ok(!audit.body.includes('os user'), 'who ran it is not a changed field');
  assert.doesNotMatch((await admin.get('/console/audit?source=staff')).body, /Command line \(erika\)/);
});
