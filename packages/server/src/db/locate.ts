// Finds the PostgreSQL a process should use. With DATABASE_URL that is the external server.
// Otherwise it is the embedded server under ATRIUM_DATA_DIR, guarded by a lock file
// (`atrium.lock`, mode 0600, JSON with pid, role and port): a second `atrium serve` on the same
// directory is refused with a clear message, while CLI commands connect to the running server's
// database instead of starting a second PostgreSQL on the same files. The application connects
// as the non-superuser role `atrium` that owns the `atrium` database's schemas (docs/adr/0012).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { EmbeddedStartError, explainFsError, isRoot } from './embedded-host.ts';
import { secureDataDir } from './embedded-datadir.ts';
import { readSecret, startEmbedded, type EmbeddedSecret, type EmbeddedServer } from './embedded.ts';
import { ensureAppRole } from './embedded-roles.ts';

export type Role = 'server' | 'cli';
interface LockInfo {
  pid: number;
  role: Role;
  port: number | null;
  startedAt: string;
}
export interface Located {
  url: string;
  embedded: boolean;
  /** The embedded server this process started (not set for CLI commands using a running server's). */
  server?: EmbeddedServer;
  release(): Promise<void>;
}

export class DataDirInUse extends Error {}

const DB_NAME = 'atrium';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

/** Creates the lock file atomically; a lock left by a dead process is taken over. */
function takeLock(file: string, role: Role): LockInfo | { holder: LockInfo } {
  const mine: LockInfo = { pid: process.pid, role, port: null, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      return mine;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = readLock(file);
      if (holder && alive(holder.pid) && holder.pid !== process.pid) return { holder };
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirInUse(`could not take the lock ${file}`);
}

function embeddedUrl(port: number, secret: EmbeddedSecret): string {
  return `postgres://${secret.appUser}:${secret.appPassword}@127.0.0.1:${port}/${DB_NAME}`;
}

/** The application's URL of a running server's database: its port from the lock, the password from the cluster's secret. */
function runningServerUrl(config: Config, port: number): string {
  const secret = readSecret(clusterDir(config));
  if (!secret) throw new EmbeddedStartError(`the running atrium server's database in ${clusterDir(config)} has no ${'atrium-secret.json'} yet: wait until it is ready and try again.`);
  return embeddedUrl(port, secret);
}

export const clusterDir = (config: Config): string => path.join(config.dataDir, 'pg');

export async function locateDatabase(
  config: Config,
  role: Role,
  log: (m: string) => void,
  opts: { onFatal?: (message: string) => void } = {},
): Promise<Located> {
  if (config.databaseUrl) {
    // Only uploads and mail use it then; a node without a writable disk still serves.
    if (role === 'server') {
      try {
        secureDataDir(config.dataDir, { keepSearch: false }, log);
      } catch (e) {
        log(`the data directory could not be prepared: ${(e as Error).message}`);
      }
    }
    return { url: config.databaseUrl, embedded: false, release: async () => {} };
  }

  const lockFile = path.join(config.dataDir, 'atrium.lock');
  let taken: ReturnType<typeof takeLock>;
  try {
    secureDataDir(config.dataDir, { keepSearch: isRoot() }, log);
    taken = takeLock(lockFile, role);
  } catch (e) {
    throw e instanceof DataDirInUse ? e : explainFsError(e, config.dataDir);
  }
  if ('holder' in taken) {
    const h = taken.holder;
    if (role === 'cli' && h.role === 'server' && h.port) {
      return { url: runningServerUrl(config, h.port), embedded: true, release: async () => {} };
    }
    throw new DataDirInUse(
      `the data directory ${config.dataDir} is in use by another atrium process ` +
        `(pid ${h.pid}, ${h.role === 'server' ? 'atrium serve' : 'an atrium command'}). ` +
        (role === 'server'
          ? 'Stop that process first, or point ATRIUM_DATA_DIR at another directory.'
          : 'Wait for it to finish and try again.'),
    );
  }

  let server: EmbeddedServer | undefined;
  try {
    server = await startEmbedded({ dir: clusterDir(config), log, onFatal: opts.onFatal });
    fs.writeFileSync(lockFile, JSON.stringify({ ...taken, port: server.port }), { mode: 0o600 });
    await ensureAppRole(server.url, DB_NAME, server.secret);
  } catch (e) {
    await server?.stop().catch(() => {});
    fs.rmSync(lockFile, { force: true });
    throw e;
  }
  const started = server;
  let released = false;
  return {
    url: embeddedUrl(started.port, started.secret),
    embedded: true,
    server: started,
    release: async () => {
      if (released) return;
      released = true;
      try {
        await started.stop();
      } finally {
        fs.rmSync(lockFile, { force: true });
      }
    },
  };
}

/** The port of an `atrium serve` running on this data directory (its lock), else null. */
export function runningServerPort(config: Config): number | null {
  const h = readLock(path.join(config.dataDir, 'atrium.lock'));
  return h && h.role === 'server' && h.port && alive(h.pid) ? h.port : null;
}

/** Takes the data directory's lock without starting PostgreSQL (restore); refused while anything holds it. */
export function holdDataDir(config: Config): () => void {
  const lockFile = path.join(config.dataDir, 'atrium.lock');
  let taken: ReturnType<typeof takeLock>;
  try {
    secureDataDir(config.dataDir, { keepSearch: isRoot() }, () => {});
    taken = takeLock(lockFile, 'cli');
  } catch (e) {
    throw e instanceof DataDirInUse ? e : explainFsError(e, config.dataDir);
  }
  if ('holder' in taken) {
    throw new DataDirInUse(`the data directory ${config.dataDir} is in use by another atrium process (pid ${taken.holder.pid}): stop it first.`);
  }
  return () => fs.rmSync(lockFile, { force: true });
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}
