// `atrium backup` / `atrium restore` : a backup taken while the server runs and
// writes, restored into a fresh data directory, holds exactly what was committed before the
// backup ended, with the install's own PostgreSQL (no host pg_dump). A restore never overwrites a
// database and a damaged archive is refused with one sentence.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { backupEmbedded, restoreEmbedded } from '../../src/cli/backup.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { locateDatabase } from '../../src/db/locate.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { installQueue } from '../../src/jobs/queue.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const configFor = (name: string) => loadConfig({ ATRIUM_DATA_DIR: path.join(tmp, name) });

async function withServer<T>(name: string, fn: (q: (sql: string, params?: unknown[]) => Promise<unknown[]>) => Promise<T>): Promise<T> {
  const located = await locateDatabase(configFor(name), 'server', () => {});
  const database = openDatabase(located.url, { max: 2 });
  try {
    await runMigrations(database.pool, { installQueue });
    return await fn(async (sql, params) => (await database.pool.query(sql, params)).rows);
  } finally {
    await database.close();
    await located.release();
  }
}

test('a backup of a running server restores into a fresh data directory with what was committed before it', { timeout: 180_000 }, async () => {
  const file = path.join(tmp, 'atrium.backup');
  await withServer('a', async (q) => {
    await q(`create table backup_probe (id int primary key, note text)`);
    await q(`insert into backup_probe select g, repeat('x', 200) from generate_series(1, 5000) g`);
    const r = await backupEmbedded(configFor('a'), file);
    assert.ok(r.bytes > 100_000, `a real archive (${r.bytes} bytes)`);
    await q(`insert into backup_probe values (999999, 'after the backup')`);
  });
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the archive holds password hashes: owner only');

  const restored = await restoreEmbedded(configFor('b'), file);
  assert.equal(restored.dir, path.join(tmp, 'b', 'pg'));
  await withServer('b', async (q) => {
    assert.deepEqual(await q(`select count(*)::int as n, max(id) as max from backup_probe`), [{ n: 5000, max: 5000 }]);
    // The service's role came back with its database: it owns the restored table.
    assert.deepEqual(await q(`select current_user as me, tableowner from pg_tables where tablename = 'backup_probe'`), [{ me: 'atrium', tableowner: 'atrium' }]);
    assert.ok(((await q(`select count(*)::int as n from drizzle.__drizzle_migrations`)) as { n: number }[])[0]!.n > 0, 'migrations came along');
  });

  await assert.rejects(restoreEmbedded(configFor('b'), file), /already holds a database: restore into a fresh data directory/);
  await assert.rejects(backupEmbedded(configFor('b'), file), /exists already: choose a new file name/);
  const broken = path.join(tmp, 'broken.backup');
  fs.writeFileSync(broken, fs.readFileSync(file).subarray(0, 4096));
  await assert.rejects(restoreEmbedded(configFor('c'), broken), /could not be restored .*: is it a file written by atrium backup/);
  assert.deepEqual(fs.readdirSync(path.join(tmp, 'c')).filter((n) => n !== 'atrium.lock'), [], 'a failed restore leaves no half database');
});
