// Start-up of the embedded PostgreSQL where it cannot work, and where it used to fail: every
// failure is ONE sentence saying what is wrong and what to do (never `undefined`, a stack or an unhandled 'error' event), and as root a private (0700) data directory
// works: PostgreSQL runs as a non-root user that may enter, but not list, the directories above.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describeFailure } from '../../src/cli/runtime.ts';
import { loadConfig } from '../../src/config.ts';
import { locateDatabase } from '../../src/db/locate.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = process.getuid?.() === 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-startup-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function failure(dataDir: string): Promise<string> {
  try {
    const located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', () => {});
    await located.release();
  } catch (e) {
    return describeFailure(e);
  }
  return 'no failure';
}

function assertOneSentence(line: string) {
  assert.doesNotMatch(line, /\n|undefined|\bat .*:\d+:\d+/, `one line, no stack: ${line}`);
  assert.match(line, /: .*(set|run|free|move|stop|choose|wait)/i, `says what to do: ${line}`);
}

test('as root, a data directory of mode 0700 inside a 0700 directory works; the parents are opened for entering only', { timeout: 120_000 }, async (t) => {
  if (!root) return t.skip('needs root: a non-root user runs PostgreSQL as itself');
  const privateDir = fs.mkdtempSync(path.join(tmp, 'private-'));
  const dataDir = path.join(privateDir, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  const located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', () => {});
  try {
    const c = new pg.Client({ connectionString: located.url });
    await c.connect();
    const { rows } = await c.query<{ me: string }>('select current_user as me');
    await c.end();
    assert.equal(rows[0]!.me, 'atrium');
    const pgDir = fs.statSync(path.join(dataDir, 'pg'));
    assert.notEqual(pgDir.uid, 0, 'the cluster belongs to the database user');
    assert.equal(pgDir.mode & 0o777, 0o700);
    for (const d of [privateDir, dataDir]) assert.equal(fs.statSync(d).mode & 0o777, 0o701, `${d}: o+x only, never readable`);
  } finally {
    await located.release();
  }
});

test('a data directory on a read-only file system: one sentence', { timeout: 30_000 }, async (t) => {
  if (!root) return t.skip('needs root to mount a read-only tmpfs');
  const mnt = path.join(tmp, 'ro');
  fs.mkdirSync(mnt);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mnt], { stdio: 'ignore' });
  } catch {
    return t.skip('this machine does not allow mounting a tmpfs');
  }
  try {
    const line = await failure(path.join(mnt, 'data'));
    assertOneSentence(line);
    assert.match(line, /read-only file system: set ATRIUM_DATA_DIR to a writable directory/);
  } finally {
    execFileSync('umount', [mnt]);
  }
});

test('a data directory that is a file: one sentence', async () => {
  const file = path.join(tmp, 'a-file');
  fs.writeFileSync(file, 'x');
  const line = await failure(file);
  assertOneSentence(line);
  assert.match(line, /is not a directory: set ATRIUM_DATA_DIR to a directory/);
});

/**
 * Runs locateDatabase as the unprivileged user `nobody` and returns what the CLI would print.
 * The child runs a bundle (esbuild, every dependency inlined) written to a temp directory that
 * nobody may read: a checkout in a private directory (mktemp -d, 0700) is closed to that user,
 * sources and node_modules alike, so it could not load them from there.
 */
let bundled: Promise<string> | undefined;
function nobodyBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'as-nobody-'));
    fs.chmodSync(dir, 0o755);
    const entry = path.join(dir, 'entry.ts');
    fs.writeFileSync(entry, `
      import { describeFailure } from ${JSON.stringify(path.join(serverRoot, 'src/cli/runtime.ts'))};
      import { loadConfig } from ${JSON.stringify(path.join(serverRoot, 'src/config.ts'))};
      import { locateDatabase } from ${JSON.stringify(path.join(serverRoot, 'src/db/locate.ts'))};
      try { const l = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: process.argv[2] }), 'server', () => {}); await l.release(); console.log('no failure'); }
      catch (e) { console.log(describeFailure(e)); }
    `);
    const outfile = path.join(dir, 'as-nobody.mjs');
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
      // CommonJS dependencies inlined into an ES module still call require() for node: built-ins.
      banner: { js: "import { createRequire as atriumCreateRequire } from 'node:module'; const require = atriumCreateRequire(import.meta.url);" },
    });
    fs.chmodSync(outfile, 0o644);
    return outfile;
  })();
  return bundled;
}

async function asNobody(dataDir: string): Promise<string> {
  const script = await nobodyBundle();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, dataDir], { cwd: '/', uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => (err.trim() ? reject(new Error(err)) : resolve(out.trim())));
  });
}

test('as a non-root user: permission denied, and a database of another user, are one sentence each', { timeout: 60_000 }, async (t) => {
  if (!root) return t.skip('needs root to switch to the user nobody');
  fs.chmodSync(tmp, 0o755);
  const closed = path.join(tmp, 'root-only');
  fs.mkdirSync(closed, { mode: 0o755 });
  const denied = await asNobody(path.join(closed, 'data'));
  assertOneSentence(denied);
  assert.match(denied, /^permission denied on .*root-only.* for user nobody: run atrium as the owner of the data directory/);

  const theirs = path.join(tmp, 'theirs');
  fs.mkdirSync(path.join(theirs, 'pg'), { recursive: true });
  fs.writeFileSync(path.join(theirs, 'pg', 'PG_VERSION'), '17\n');
  fs.chownSync(theirs, 65534, 65534);
  fs.chmodSync(path.join(theirs, 'pg'), 0o700);
  const other = await asNobody(theirs);
  assertOneSentence(other);
  assert.match(other, /^the database in .*theirs\/pg belongs to user 0, not to this user \(nobody\): run atrium as that user/);
});
