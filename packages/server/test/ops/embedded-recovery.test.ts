// after `kill -9` of atrium its embedded PostgreSQL kept running and the next
// start failed ("atrium: undefined"); a PostgreSQL that died stayed dead. Now the next start stops
// the orphan of its own data directory, and a dead PostgreSQL is restarted with backoff while
// /readyz answers 503.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { locateDatabase } from '../../src/db/locate.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { installQueue } from '../../src/jobs/queue.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-recovery-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const postmasterPid = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie is gone
  } catch {
    return false;
  }
};
async function until(what: string, ms: number, check: () => Promise<boolean> | boolean) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not within ${ms} ms: ${what}`);
}

test('kill -9 of atrium: the next start stops the orphaned PostgreSQL of its data directory and serves', { timeout: 120_000 }, async () => {
  const dataDir = path.join(tmp, 'orphan');
  const script = path.join(tmp, 'hold.mts');
  fs.writeFileSync(script, `
    import { loadConfig } from ${JSON.stringify(path.join(serverRoot, 'src/config.ts'))};
    import { locateDatabase } from ${JSON.stringify(path.join(serverRoot, 'src/db/locate.ts'))};
    await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: ${JSON.stringify(dataDir)} }), 'server', () => {});
    console.log('ready');
    setInterval(() => {}, 1000);
  `);
  const holder = spawn(process.execPath, ['--import', 'tsx', script], { cwd: serverRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (d) => String(d).includes('ready') && resolve());
    holder.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  const orphan = postmasterPid(dataDir);
  holder.kill('SIGKILL');
  await new Promise((r) => holder.once('exit', r));
  assert.ok(alive(orphan), 'kill -9 leaves the PostgreSQL running (it is in its own process group)');

  const notes: string[] = [];
  const located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', (m) => notes.push(m));
  try {
    assert.equal(alive(orphan), false, 'the orphan was stopped');
    assert.notEqual(postmasterPid(dataDir), orphan);
    assert.match(notes.join('\n'), new RegExp(`stopping the PostgreSQL \\(pid ${orphan}\\) that a previous atrium process left running`));
    const db = openDatabase(located.url, { max: 1 });
    assert.equal((await db.pool.query('select 1 as one')).rows[0].one, 1);
    await db.close();
  } finally {
    await located.release();
  }
  assert.equal(fs.existsSync(path.join(dataDir, 'atrium.lock')), false);
});

test('a PostgreSQL that dies is restarted on the same port; /readyz is 503 meanwhile, then 200', { timeout: 120_000 }, async () => {
  const dataDir = path.join(tmp, 'supervised');
  const notes: string[] = [];
  const located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', (m) => notes.push(m));
  const database = openDatabase(located.url, { max: 3 });
  await runMigrations(database.pool, { installQueue });
  const app = await buildApp({ database, config: loadConfig({ ATRIUM_DATA_DIR: dataDir }), logger: false, ...TEST_SCHEMAS });
  try {
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
    const first = postmasterPid(dataDir);
    process.kill(first, 'SIGKILL');
    await until('the supervisor notices', 5_000, () => located.server!.state() === 'restarting');
    assert.equal((await app.inject({ url: '/readyz' })).statusCode, 503, 'not ready while PostgreSQL is down');
    await until('PostgreSQL is back', 60_000, () => located.server!.state() === 'ready');
    await until('/readyz is 200 again', 10_000, async () => (await app.inject({ url: '/readyz' })).statusCode === 200);
    assert.notEqual(postmasterPid(dataDir), first);
    assert.match(notes.join('\n'), /exited unexpectedly .*restarting it[\s\S]*running again/);
  } finally {
    await app.close();
    await database.close();
    await located.release();
  }
  assert.equal(located.server!.state(), 'stopped');
});
