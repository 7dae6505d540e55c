// As root the embedded PostgreSQL runs as a user of its own (`atrium-pg`, no login), not as the
// host's shared `postgres`, whose files the superuser of any other PostgreSQL on the host can
// read and write. A cluster an older atrium left to `postgres` is handed over at its next start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { locateDatabase } from '../../src/db/locate.ts';

const root = process.getuid?.() === 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-pguser-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const idOf = (name: string) => ({ uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' })) });
/** The real uid the postmaster of this cluster runs as. */
function postmasterUid(clusterDir: string): number {
  const pid = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('Uid:'))!;
  return Number(line.split(/\s+/)[1]);
}
function owners(dir: string, out = new Set<number>()): Set<number> {
  out.add(fs.lstatSync(dir).uid);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) owners(p, out);
    else out.add(fs.lstatSync(p).uid);
  }
  return out;
}
async function query(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

test('as root, a fresh embedded start runs PostgreSQL as the dedicated user atrium-pg', { timeout: 120_000 }, async (t) => {
  if (!root) return t.skip('needs root: a non-root user runs PostgreSQL as itself');
  const dataDir = path.join(tmp, 'fresh');
  const located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', () => {});
  try {
    const me = idOf('atrium-pg');
    const cluster = path.join(dataDir, 'pg');
    assert.equal(postmasterUid(cluster), me.uid, 'the postmaster runs as atrium-pg');
    assert.equal(fs.statSync(cluster).uid, me.uid, 'the cluster belongs to atrium-pg');
    if (fs.existsSync('/etc/passwd')) {
      const shell = execFileSync('getent', ['passwd', 'atrium-pg'], { encoding: 'utf8' }).trim().split(':')[6];
      assert.match(shell ?? '', /nologin|false/, 'no login');
    }
    const postgres = (() => {
      try {
        return idOf('postgres').uid;
      } catch {
        return null;
      }
    })();
    if (postgres !== null) assert.ok(!owners(cluster).has(postgres), 'nothing belongs to the shared postgres user');
  } finally {
    await located.release();
  }
});

test('as root, a cluster owned by the shared postgres user is handed to atrium-pg at start, with a log line', { timeout: 180_000 }, async (t) => {
  if (!root) return t.skip('needs root to change owners');
  let postgres: { uid: number; gid: number };
  try {
    postgres = idOf('postgres');
  } catch {
    return t.skip('this host has no postgres user');
  }
  const dataDir = path.join(tmp, 'legacy');
  const cluster = path.join(dataDir, 'pg');
  const first = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', () => {});
  await query(first.url, `create table kept (note text); insert into kept values ('from before')`);
  await first.release();
  // What an older atrium left: the cluster's files owned by postgres (the secret file by root).
  execFileSync('chown', ['-R', `${postgres.uid}:${postgres.gid}`, cluster]);
  fs.chownSync(path.join(cluster, 'atrium-secret.json'), 0, 0);

  const lines: string[] = [];
  const second = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', (m) => lines.push(m));
  try {
    const me = idOf('atrium-pg');
    assert.equal(postmasterUid(cluster), me.uid);
    assert.deepEqual([...owners(cluster)].sort(), [0, me.uid].sort(), 'no file of postgres left; the secret stays root\'s');
    assert.equal(fs.statSync(path.join(cluster, 'atrium-secret.json')).uid, 0);
    assert.ok(lines.some((l) => /belonged to the shared `postgres` user; handed its \d+ files to `atrium-pg`/.test(l)), lines.join('\n'));
    assert.deepEqual(await query(second.url, 'select note from kept'), [{ note: 'from before' }]);
  } finally {
    await second.release();
  }
  // Once handed over, nothing more to say.
  const third: string[] = [];
  await (await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', (m) => third.push(m))).release();
  assert.ok(!third.some((l) => /belonged to/.test(l)), third.join('\n'));
});
