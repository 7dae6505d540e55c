// A/B of two builds on one catalogue miss: the public ticket list with row JSON warm
// (ATRIUM_CATALOG_CACHE=rows), both servers on the same database, measured in
// alternating rounds so that the machine's changing load falls on both alike. Reports req/s, p99
// and the server's CPU per request (user + system, from /proc) per round and in all.
//   BENCH_FROM=/path/to/other/checkout npx tsx bench/catalog-ab.ts   (A: that checkout, B: this one)
//   BENCH_ROUNDS=3 BENCH_SECONDS=4 BENCH_CONNECTIONS=50, BENCH_DATABASE_URL as for the others;
//   BENCH_CACHE=true measures answer-cache hits instead (ATRIUM_CATALOG_CACHE of both servers);
//   BENCH_LARGE=1 adds the large catalogue, BENCH_PATH=/api/v4/dates measures another request;
//   a `{n}` in BENCH_PATH is a new number on every request (a new condition each time, e.g.
//   /api/v4/tickets?by_museum_ids=1,2,{n})
// The other checkout needs its dependencies (e.g. `git worktree add /tmp/a <rev>` and symlinks to
// this checkout's node_modules folders). Without BENCH_FROM, A is this checkout too (an A/A run,
// which shows the noise).
import os from 'node:os';
import { shopCatalogue } from './lib/catalogue.ts';
import { serverCpu } from './lib/cpu.ts';
import { benchDatabase } from './lib/db.ts';
import { seedLargeCatalogue } from './lib/large-catalogue.ts';
import { load } from './lib/load.ts';
import { startAtrium, type Child } from './lib/servers.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

const db = await benchDatabase();
const { db: orm } = db.database;
const { quotaId } = await shopCatalogue(orm); // the 30-ticket shop page of bench/catalog.ts
// BENCH_LARGE=1: bench/catalog.ts's large catalogue too (2,000 tickets, 50,000 event dates),
// vacuumed as there; BENCH_PATH picks the request (e.g. /api/v4/dates, /api/v4/tickets?page=40).
if (process.env.BENCH_LARGE === '1') {
  await seedLargeCatalogue(db.database.pool, quotaId);
  await db.database.pool.query('vacuum analyze');
}
const PATH = process.env.BENCH_PATH ?? '/api/v4/tickets';

/** User and system CPU ms of a server so far (bench/lib/cpu.ts). */
function cpu(pid: number): [number, number] {
  const c = serverCpu(pid);
  return [c.userMs, c.systemMs];
}

const env = { ATRIUM_CATALOG_CACHE: process.env.BENCH_CACHE ?? 'rows' };
const servers: Array<[string, Child]> = [
  ['A', await startAtrium(db.url, env, [], process.env.BENCH_FROM)],
  ['B', await startAtrium(db.url, env)],
];
let n = 1_000_000;
const varied = PATH.includes('{n}') ? { path: () => PATH.replace('{n}', String(n++)) } : {};
const list = (s: Child) => `${s.base}${PATH.replace('{n}', '999999')}`;
const bodies = await Promise.all(servers.map(async ([, s]) => (await fetch(list(s))).text()));
if (bodies[0] !== bodies[1]) throw new Error('A and B answer differently');
for (const [, s] of servers) await load({ url: list(s), connections: CONNECTIONS, seconds: 2, ...varied });

const totals = new Map(servers.map(([n]) => [n, { n: 0, user: 0, sys: 0, rps: [] as number[] }]));
process.stdout.write(`catalogue A/B of ${PATH} — ${db.where}, ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, A = ${process.env.BENCH_FROM ?? 'this checkout'}\n`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, s] of servers) {
    const [u0, s0] = cpu(s.pid);
    const r = await load({ url: list(s), connections: CONNECTIONS, seconds: SECONDS, ...varied });
    const [u1, s1] = cpu(s.pid);
    const n = Math.max(1, r.ok + r.non2xx);
    const t = totals.get(name)!;
    t.n += n;
    t.user += u1 - u0;
    t.sys += s1 - s0;
    t.rps.push(r.rps);
    process.stdout.write(`  round ${round} ${name}: ${r.rps} req/s, p99 ${r.p99} ms, server CPU ${((u1 - u0) / n).toFixed(3)} + ${((s1 - s0) / n).toFixed(3)} ms (user + system) ${JSON.stringify(r.statuses)}\n`);
  }
}
const [a, b] = [totals.get('A')!, totals.get('B')!];
const per = (t: typeof a) => (t.user + t.sys) / t.n;
for (const [name, t] of [['A', a], ['B', b]] as const) {
  process.stdout.write(`${name}: ${t.rps.join(' / ')} req/s; server CPU per request ${(t.user / t.n).toFixed(3)} + ${(t.sys / t.n).toFixed(3)} ms\n`);
}
process.stdout.write(`B / A server CPU per request: ${(per(b) / per(a)).toFixed(2)}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
for (const [, s] of servers) await s.stop();
await db.dispose();
