// Finds the PostgreSQL a process should use. With DATABASE_URL that is the external server.
// Otherwise it is the embedded server under ATRIUM_DATA_DIR, guarded by a lock file
// (`atrium.lock`, JSON with pid, role and port): a second `atrium serve` on the same directory is
// refused with a clear message, while CLI commands connect to the running server's database
// instead of starting a second PostgreSQL on the same files.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbedded } from './embedded.ts';

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
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
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

function embeddedUrl(port: number): string {
  return `postgres://postgres:atrium-embedded@127.0.0.1:${port}/${DB_NAME}`;
}

export async function locateDatabase(config: Config, role: Role, log: (m: string) => void): Promise<Located> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, release: async () => {} };

  fs.mkdirSync(config.dataDir, { recursive: true });
  const lockFile = path.join(config.dataDir, 'atrium.lock');
  const taken = takeLock(lockFile, role);
  if ('holder' in taken) {
    const h = taken.holder;
    if (role === 'cli' && h.role === 'server' && h.port) {
      return { url: embeddedUrl(h.port), embedded: true, release: async () => {} };
    }
    throw new DataDirInUse(
      `the data directory ${config.dataDir} is in use by another atrium process ` +
        `(pid ${h.pid}, ${h.role === 'server' ? 'atrium serve' : 'an atrium command'}). ` +
        (role === 'server'
          ? 'Stop that process first, or point ATRIUM_DATA_DIR at another directory.'
          : 'Wait for it to finish and try again.'),
    );
  }

  let server;
  try {
    server = await startEmbedded({ dir: path.join(config.dataDir, 'pg'), log });
  } catch (e) {
    fs.rmSync(lockFile, { force: true });
    throw e;
  }
  fs.writeFileSync(lockFile, JSON.stringify({ ...taken, port: server.port }));
  await ensureDatabase(server.url, DB_NAME);
  let released = false;
  return {
    url: embeddedUrl(server.port),
    embedded: true,
    release: async () => {
      if (released) return;
      released = true;
      try {
        await server.stop();
      } finally {
        fs.rmSync(lockFile, { force: true });
      }
    },
  };
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
