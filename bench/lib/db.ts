// A throwaway PostgreSQL for a benchmark run: embedded in a temp directory, or the server named by
// BENCH_DATABASE_URL (a fresh database is created on it and dropped afterwards).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../packages/server/src/db/client.ts';
import { startEmbedded } from '../../packages/server/src/db/embedded.ts';
import { runMigrations } from '../../packages/server/src/db/migrate.ts';
import { installQueue } from '../../packages/server/src/jobs/queue.ts';

export interface BenchDb {
  url: string;
  where: string;
  database: Database;
  dispose(): Promise<void>;
}

export async function benchDatabase(): Promise<BenchDb> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let stop = async () => {};
  let tmp: string | undefined;
  let where = 'external PostgreSQL (BENCH_DATABASE_URL)';
  if (!adminUrl) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
    fs.chmodSync(tmp, 0o755);
    const server = await startEmbedded({ dir: path.join(tmp, 'pg'), persistent: false });
    adminUrl = server.url;
    stop = server.stop;
    where = 'embedded PostgreSQL 17';
  }
  const name = `atrium_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}"`);
  await admin.query(`create database "${name}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const database = openDatabase(url, { max: 4 });
  await runMigrations(database.pool, { installQueue });
  return {
    url,
    where,
    database,
    async dispose() {
      await database.close();
      await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
      await admin.end();
      await stop();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
