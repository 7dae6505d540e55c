// `atrium backup FILE` and `atrium restore FILE`: a physical backup of the embedded PostgreSQL,
// made and read with the install's own PostgreSQL 17 (db/embedded-backup.ts; docs/operations.md,
// "Backup and restore"). A backup runs while the server serves; a restore goes into a data
// directory without a database, with no server running on it, and is checked by starting it.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.ts';
import { backupCluster, unpackBackup, type BackupResult } from '../db/embedded-backup.ts';
import { dbUserFor, isRoot } from '../db/embedded-host.ts';
import { readSecret, startEmbedded } from '../db/embedded.ts';
import { ensureAppRole } from '../db/embedded-roles.ts';
import { clusterDir, holdDataDir, locateDatabase, runningServerPort } from '../db/locate.ts';
import { UsageError } from '../config.ts';
import { action } from './runtime.ts';

const EXTERNAL = 'is for the embedded database; with DATABASE_URL use the tools of that PostgreSQL server (pg_dump and pg_restore of its major version).';

/** FILE as the operator typed it: relative to where the command was typed (npm's INIT_CWD). */
const resolveFile = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

export async function backupEmbedded(config: Config, file: string): Promise<BackupResult & { file: string }> {
  if (config.databaseUrl) throw new UsageError(`atrium backup ${EXTERNAL}`);
  const out = resolveFile(file);
  if (fs.existsSync(out)) throw new UsageError(`${out} exists already: choose a new file name (a backup never overwrites one).`);
  const dir = clusterDir(config);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new UsageError(`there is no embedded database in ${dir} to back up: check ATRIUM_DATA_DIR.`);
  let port = runningServerPort(config);
  let release = async () => {};
  if (!port) {
    const located = await locateDatabase(config, 'cli', () => {});
    release = located.release;
    port = located.server ? located.server.port : Number(new URL(located.url).port);
  }
  try {
    const secret = readSecret(dir);
    if (!secret) throw new UsageError(`${dir} has no atrium-secret.json: start the server once, then back up.`);
    const result = await backupCluster(`postgres://postgres:${secret.password}@127.0.0.1:${port}/postgres`, dir, out);
    return { ...result, file: out };
  } finally {
    await release();
  }
}

/** As root the restored cluster belongs to the database user; the secret stays root's (0600). */
function chownTree(dir: string, uid: number, gid: number): void {
  fs.chownSync(dir, uid, gid);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.name === 'atrium-secret.json' && dir.endsWith('pg')) continue;
    if (e.isDirectory()) chownTree(p, uid, gid);
    else fs.chownSync(p, uid, gid);
  }
}

export async function restoreEmbedded(config: Config, file: string): Promise<{ created_at: string; dir: string }> {
  if (config.databaseUrl) throw new UsageError(`atrium restore ${EXTERNAL}`);
  const input = resolveFile(file);
  if (!fs.existsSync(input)) throw new UsageError(`${input} does not exist.`);
  const release = holdDataDir(config);
  try {
    const dir = clusterDir(config);
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
      throw new UsageError(`${dir} already holds a database: restore into a fresh data directory (set ATRIUM_DATA_DIR), or move ${dir} away first.`);
    }
    const user = dbUserFor(dir);
    let meta: { created_at: string };
    try {
      meta = await unpackBackup(input, dir, (d) => (isRoot() && user ? chownTree(d, user.uid, user.gid) : undefined));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`${input} could not be restored (${code ?? (e as Error).message}): is it a file written by atrium backup, complete and readable?`);
    }
    // The first start replays the backup's WAL; the application role is checked as at every start.
    const server = await startEmbedded({ dir });
    try {
      await ensureAppRole(server.url, 'atrium', server.secret);
    } finally {
      await server.stop();
    }
    return { ...meta, dir };
  } finally {
    release();
  }
}

export function backupCommands(program: Command): void {
  program
    .command('backup <file>')
    .description('write a backup of the embedded database to FILE (gzip\'d tar, mode 0600); works while the server runs')
    .action(
      action(async (file: string) => {
        const r = await backupEmbedded(loadConfig(), file);
        process.stdout.write(`atrium: backup written to ${r.file} (${(r.bytes / 1e6).toFixed(1)} MB, WAL ${r.startLsn} to ${r.stopLsn})\n`);
      }),
    );
  program
    .command('restore <file>')
    .description('restore a backup made by atrium backup into ATRIUM_DATA_DIR, which must hold no database')
    .action(
      action(async (file: string) => {
        const r = await restoreEmbedded(loadConfig(), file);
        process.stdout.write(`atrium: restored the backup of ${r.created_at} into ${r.dir}; start the server with atrium serve\n`);
      }),
    );
}
