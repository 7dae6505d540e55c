// Shared pieces of the crash drills: a check collector, `atrium serve` as a child process, a
// throwaway database with a small catalogue (slots of small capacity, so load sells out and
// contends), and a bounded order load over real HTTP on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { installQueue } from '../../src/jobs/queue.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { addDays, localDateOf, zonedInstant } from '../../src/domain/time.ts';
import { museum, quota, ticket } from '../../test/helpers/factories.ts';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ZONE = 'Europe/Berlin';

export interface Check {
  drill: string;
  name: string;
  ok: boolean;
  detail: string;
}

export class Checks {
  readonly list: Check[] = [];
  constructor(private drill: string) {}
  check(name: string, ok: boolean, detail = '') {
    this.list.push({ drill: this.drill, name, ok, detail });
    console.log(`  ${ok ? '✔' : '✖'} ${name}${detail ? ` — ${detail}` : ''}`);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Server {
  base: string;
  proc: ChildProcess;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `atrium serve` on a random port of 127.0.0.1 against `databaseUrl`. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const proc = spawn(process.execPath, ['bin/atrium.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: SERVER_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ATRIUM_RESELLER_RATE_LIMIT: '1000000', ATRIUM_USER_RATE_LIMIT: '1000000', ATRIUM_PUBLIC_RATE_LIMIT: '1000000', ATRIUM_ANON_RATE_LIMIT: '1000000', ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '0', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`atrium serve did not start in 30 s:\n${out}`)), 30_000);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /ready in \d+ ms on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    proc.once('exit', (code) => reject(new Error(`atrium serve exited with ${code}:\n${out}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    proc,
    output: () => out,
    kill: (signal) =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill(signal);
      }),
  };
}

export interface DrillDb {
  url: string;
  database: Database;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the server of `adminUrl`. */
export async function drillDatabase(adminUrl: string, name: string): Promise<DrillDb> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const database = openDatabase(url, { max: 2 });
  // A drill stops the database under this pool: idle clients then emit errors, which are expected.
  database.pool.on('error', () => {});
  await runMigrations(database.pool, { installQueue });
  return {
    url,
    database,
    async drop() {
      await database.close().catch(() => {});
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists "${name}" with (force)`).catch(() => {});
      await a.end();
    },
  };
}

export interface Catalogue {
  token: string;
  /** Time-slot ticket on a slot quota of `capacity` places per slot. */
  ticketId: number;
  quotaId: number;
  capacity: number;
  slots: string[];
  /** A second ticket/quota used only for holds. */
  holdTicketId: number;
  holdQuotaId: number;
  holdCapacity: number;
  holdSlot: string;
}

export async function seedCatalogue(database: Database, opts: { days: number; capacity: number }): Promise<Catalogue> {
  const db = database.db;
  const m = await museum(db, { timeZone: ZONE });
  const q = await quota(db, { museumId: m.id, kind: 'slot', capacity: opts.capacity });
  const tk = await ticket(db, { museumId: m.id, quotaIds: [q.id] });
  const hq = await quota(db, { museumId: m.id, kind: 'slot', capacity: 10 });
  const ht = await ticket(db, { museumId: m.id, quotaIds: [hq.id] });
  const today = localDateOf(new Date(), ZONE);
  const slots: string[] = [];
  for (let d = 1; d <= opts.days; d++) {
    for (let k = 0; k < 15; k++) slots.push(zonedInstant(addDays(today, d), 600 + 30 * k, ZONE).toISOString());
  }
  const { token } = await createToken({ db, clock: systemClock }, { class: 'reseller', name: 'drill reseller' });
  return {
    token,
    ticketId: tk.id,
    quotaId: q.id,
    capacity: opts.capacity,
    slots,
    holdTicketId: ht.id,
    holdQuotaId: hq.id,
    holdCapacity: 10,
    holdSlot: zonedInstant(addDays(today, 2), 600, ZONE).toISOString(),
  };
}

export interface Answer {
  status: number | 'network';
  body: any;
}

export async function call(base: string, method: string, url: string, token: string, body?: unknown): Promise<Answer> {
  try {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 'network', body: null };
  }
}
