// CPU time a load costs, per successful request: PostgreSQL backends of the bench database plus the
// server process, read from /proc before and after. On a machine shared with other work req/s
// swing with the neighbours' load; the CPU one request takes moves far less.
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Database } from '../../packages/server/src/db/client.ts';
import type { LoadResult } from './load.ts';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** A process's user and system CPU time so far, in ms (10 ms steps); undefined once it has ended. */
export function processCpu(pid: number): { userMs: number; systemMs: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { userMs: Number(f[11]) * TICK_MS, systemMs: Number(f[12]) * TICK_MS }; // utime, stime
  } catch {
    return undefined;
  }
}

/** `processCpu` of a server that must still be running: a measurement of an ended one is void. */
export function serverCpu(pid: number): { userMs: number; systemMs: number } {
  const c = processCpu(pid);
  if (!c) throw new Error(`server ${pid} has ended`);
  return c;
}

function cpuMs(pid: number): number {
  const c = processCpu(pid);
  return c ? c.userMs + c.systemMs : 0; // 0: ended meanwhile
}

async function backends(db: Database['db']): Promise<number[]> {
  const r = await db.execute<{ pid: number }>(sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
  return r.rows.map((x) => x.pid);
}

export interface CpuPerRequest {
  pgMs: number;
  serverMs: number;
  /** The load generator's (this process's), which shares the cores with the other two. */
  genMs: number;
  ok: number;
}

/** Runs `run` and divides the CPU the database's backends, `serverPid` and this process spent by its 2xx count. */
export async function cpuPerRequest(db: Database['db'], serverPid: number, run: () => Promise<LoadResult>): Promise<CpuPerRequest> {
  const before = new Map((await backends(db)).map((p) => [p, cpuMs(p)]));
  const server0 = cpuMs(serverPid);
  const gen0 = process.cpuUsage();
  const r = await run();
  const gen = process.cpuUsage(gen0);
  const server1 = cpuMs(serverPid);
  let pg = 0;
  // A backend that connected during the run counts from zero: all its CPU is the run's.
  for (const p of new Set([...before.keys(), ...(await backends(db))])) pg += cpuMs(p) - (before.get(p) ?? 0);
  const ok = Math.max(1, r.ok);
  return { pgMs: Number((pg / ok).toFixed(3)), serverMs: Number(((server1 - server0) / ok).toFixed(3)), genMs: Number(((gen.user + gen.system) / 1000 / ok).toFixed(3)), ok: r.ok };
}
