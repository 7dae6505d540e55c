// Shared plumbing of CLI commands: configuration, the right database (external, the running
// server's embedded one, or a temporarily started embedded one), migrations, and clean exit.
import os from 'node:os';
import { loadConfig, ConfigError, UsageError, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { EmbeddedStartError } from '../db/embedded-host.ts';
import { DataDirInUse, locateDatabase } from '../db/locate.ts';
import { runMigrations } from '../db/migrate.ts';
import { installQueue } from '../jobs/queue.ts';
import { databaseClock } from '../domain/capacity/databaseClock.ts';
import { systemCtx, type Ctx } from '../domain/context.ts';
import { DomainError } from '../domain/errors.ts';

export async function withDatabase<T>(fn: (ctx: Ctx, database: Database, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const located = await locateDatabase(config, 'cli', () => {});
  const database = openDatabase(located.url, { max: 4, applicationName: 'atrium-cli' });
  try {
    await runMigrations(database.pool, { installQueue });
    return await fn(systemCtx({ db: database.db, clock: await databaseClock(database.db), config }), database, config);
  } finally {
    await database.close();
    await located.release();
  }
}

/**
 * One line for any failure: known ones say what is wrong and what to do; anything else still
 * gets one line (its message, never `undefined`), the stack only with ATRIUM_DEBUG=1.
 */
export function describeFailure(e: unknown): string {
  if (e instanceof DomainError || e instanceof ConfigError || e instanceof DataDirInUse || e instanceof UsageError || e instanceof EmbeddedStartError) {
    const detail = e instanceof DomainError && e.errors ? `\n  - ${e.errors.join('\n  - ')}` : '';
    return `${e.message}${detail}`;
  }
  const err = e as (Error & { code?: string }) | undefined;
  const message = (err && typeof err.message === 'string' && err.message) || (e === undefined ? 'no error details' : String(e));
  const code = err?.code ? ` (${err.code})` : '';
  const debug = process.env.ATRIUM_DEBUG === '1' && err?.stack ? `\n${err.stack}` : '';
  return `unexpected failure: ${message.split('\n')[0]}${code}; run again with ATRIUM_DEBUG=1 for details${debug}`;
}

/** Runs a command action: failures print one clear line and exit 1, never a bare stack trace. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      process.stderr.write(`atrium: ${describeFailure(e)}\n`);
      process.exitCode = 1;
    }
  };
}

/** "90d", "12h", "30m", "45s" or plain seconds → seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhdw]?)$/.exec(text.trim());
  if (!m) throw new UsageError(`invalid duration "${text}": use e.g. 90d, 12h, 30m or 45s`);
  const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2] as '' | 's' | 'm' | 'h' | 'd' | 'w'];
  const n = Number(m[1]) * mult;
  if (n <= 0) throw new UsageError(`duration must be positive, got "${text}"`);
  return n;
}

export function parseIdList(text: string, what: string): number[] {
  const parts = text.split(',').map((s) => s.trim()).filter(Boolean);
  const ids = parts.map(Number);
  if (ids.some((n) => !Number.isInteger(n) || n < 1)) throw new UsageError(`${what} must be a comma list of ids, got "${text}"`);
  return ids;
}

/** Who ran the command, for the audit log: the user behind sudo when there is one. */
export const osUser = () => process.env.SUDO_USER || os.userInfo().username;
