// Node's young generation on a catalogue miss (docs/adr/0033-young-generation.md): the same
// build started with Node's default semi-space and with the sizes below, on one database,
// measured in alternating rounds (the machine's changing speed falls on all alike). Per request:
// the server's GC time (prom-client's gc histogram at /metrics, the main thread's pauses) and its
// CPU (/proc), and the peak RSS each server reached.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/gc.ts
//   BENCH_ROUNDS=4 BENCH_SECONDS=3 BENCH_CONNECTIONS=50; BENCH_CACHE=true measures answer-cache hits
import os from 'node:os';
import { YOUNG_GENERATION_FLAG } from '../packages/server/src/cluster/nodeFlags.ts';
import { shopCatalogue } from './lib/catalogue.ts';
import { serverCpu } from './lib/cpu.ts';
import { benchDatabase } from './lib/db.ts';
import { load } from './lib/load.ts';
import { startAtrium, type Child } from './lib/servers.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CACHE = process.env.BENCH_CACHE ?? 'rows'; // ATRIUM_CATALOG_CACHE of the servers
const VARIANTS: Array<[string, string[]]> = [
  ["Node's default (16 MB)", []],
  ['--max-semi-space-size=32', ['--max-semi-space-size=32']],
  [`${YOUNG_GENERATION_FLAG} (ours)`, [YOUNG_GENERATION_FLAG]],
];

const db = await benchDatabase();
await shopCatalogue(db.database.db); // the 30-ticket shop page of bench/catalog.ts
const servers: Array<[string, Child]> = [];
for (const [name, flags] of VARIANTS) servers.push([name, await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: CACHE }, [], undefined, flags)]);
const list = (s: Child) => `${s.base}/api/v4/tickets`;

/** The server's GC pause time so far, ms (every GC kind). */
async function gcMs(s: Child): Promise<number> {
  const text = await (await fetch(`${s.base}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^atrium_nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm)) sum += Number(m[1]);
  return sum * 1000;
}
function cpuMs(s: Child): number {
  const c = serverCpu(s.pid);
  return c.userMs + c.systemMs;
}

for (const [, s] of servers) await load({ url: list(s), connections: CONNECTIONS, seconds: 2 });
const totals = new Map(servers.map(([name]) => [name, { gc: 0, cpu: 0, n: 0, rps: [] as number[] }]));
process.stdout.write(`young generation — ${db.where}, /tickets with ATRIUM_CATALOG_CACHE=${CACHE}, ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections\n`);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, s] of servers) {
    const [g0, c0] = [await gcMs(s), cpuMs(s)];
    const r = await load({ url: list(s), connections: CONNECTIONS, seconds: SECONDS });
    const [g1, c1] = [await gcMs(s), cpuMs(s)];
    const t = totals.get(name)!;
    t.gc += g1 - g0;
    t.cpu += c1 - c0;
    t.n += Math.max(1, r.ok);
    t.rps.push(r.rps);
  }
}
for (const [name, s] of servers) {
  const t = totals.get(name)!;
  const us = (ms: number) => `${((ms / t.n) * 1000).toFixed(0)} µs`;
  process.stdout.write(`  ${name.padEnd(40)} GC ${us(t.gc).padStart(7)}/request of ${us(t.cpu)} CPU (${((100 * t.gc) / t.cpu).toFixed(1)}%), ${t.rps.join(' / ')} req/s, peak RSS ${s.peakRssMb()} MB\n`);
}
process.stdout.write(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
for (const [, s] of servers) await s.stop();
await db.dispose();
