// GET /api/v4/dates on the large catalogue (2,030 tickets, 100 events with 50,000
// event dates over 500 days; the same seed as bench/catalog.ts), alone: req/s, p50/p99 and the CPU
// each request costs the server and PostgreSQL (bench/lib/cpu.ts), with the load average beside
// every figure, because the 2 shared cores make req/s swing (bench/README.md).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/dates-large.ts
//   BENCH_SECONDS=8 BENCH_CONNECTIONS=50 BENCH_ROUNDS=1
//   BENCH_CACHE=off|on|both   ATRIUM_CATALOG_CACHE=0 (the cold figure, default), the default
//                             caches (the master-data memo on; /dates is never answer-cached), or both
//   BENCH_PATHS=/api/v4/dates,/api/v4/dates/languages   paths to measure (default: /dates and the
//                             paths sharing its builder: an event's dates, the languages, page 10, q=)
//   BENCH_FROM=/path/to/checkout   run that checkout's server instead (an A/B on the same database)
//   BENCH_CPU_PROF=dir        the servers write V8 CPU profiles there when they stop
//   BENCH_VACUUM=1            VACUUM ANALYZE after seeding, as bench/catalog.ts does since ADR 0022
//                             (default: ANALYZE only, as the figures before it)
//   BENCH_WARMUP=4            seconds of load before the first measurement (route schemas compile then)
// Writes bench/results/dates-large.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase } from './lib/db.ts';
import { cpuPerRequest, type CpuPerRequest } from './lib/cpu.ts';
import { seedLargeCatalogue } from './lib/large-catalogue.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CACHE = process.env.BENCH_CACHE ?? 'off';
const FROM = process.env.BENCH_FROM ? path.resolve(process.env.BENCH_FROM) : undefined;
const here = path.dirname(fileURLToPath(import.meta.url));
const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

const db = await benchDatabase();
const pool = db.database.pool;
// The small museum of bench/catalog.ts (its quota carries every second large ticket), then the large one.
const [{ id: quotaId }] = (
  await pool.query(
    `with m as (insert into museums (title, time_zone, opening_hours) values ('{"de":"Bench-Museum","en":"Bench Museum"}', 'Europe/Berlin', '[[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080]]') returning id)
     insert into quotas (museum_id, name, kind, capacity) select id, 'slots', 'slot', 500 from m returning id`,
  )
).rows as [{ id: number }];
const seeded = await seedLargeCatalogue(pool, quotaId);
// BENCH_VACUUM=1: VACUUM the seeded tables (all pages all-visible, as autovacuum leaves a catalogue
// that rarely changes; bench/catalog.ts does so too since ADR 0022). Without it the first minute
// may read the heap.
if (process.env.BENCH_VACUUM === '1') await pool.query('vacuum analyze');
const [{ id: eventId }] = (await pool.query(`select min(id)::int as id from events`)).rows as [{ id: number }];

const paths = process.env.BENCH_PATHS
  ? process.env.BENCH_PATHS.split(',')
  : ['/api/v4/dates', `/api/v4/events/${eventId}/dates`, '/api/v4/dates/languages', '/api/v4/dates?page=10', `/api/v4/dates?q=${encodeURIComponent('tour 1')}`];
const modes = CACHE === 'both' ? ['off', 'on'] : [CACHE];

type Row = { mode: string; round: number; path: string; result: LoadResult; cpu: CpuPerRequest; loadavgBefore: string; loadavgAfter: string };
const rows: Row[] = [];
process.stdout.write(`dates on the large catalogue — ${db.where}, seeded in ${seeded} ms, ${SECONDS}s, ${CONNECTIONS} connections, node ${process.version}, ${os.availableParallelism()} CPUs${FROM ? `, server from ${FROM}` : ''}\n`);
for (const mode of modes) {
  const server = await startAtrium(db.url, mode === 'off' ? { ATRIUM_CATALOG_CACHE: '0' } : {}, [], FROM);
  // A fresh server compiles its route schemas in the background for its first seconds.
  await load({ url: `${server.base}${paths[0]}`, connections: CONNECTIONS, seconds: Number(process.env.BENCH_WARMUP ?? 4) });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const p of paths) {
      const url = `${server.base}${p}`;
      await load({ url, connections: CONNECTIONS, seconds: 1 });
      const loadavgBefore = loadavg();
      let result!: LoadResult;
      const cpu = await cpuPerRequest(db.database.db, server.pid, async () => (result = await load({ url, connections: CONNECTIONS, seconds: SECONDS })));
      const row = { mode, round, path: p, result, cpu, loadavgBefore, loadavgAfter: loadavg() };
      rows.push(row);
      const bad = Object.entries(result.statuses).filter(([s]) => s !== '200');
      process.stdout.write(
        `cache ${mode} r${round} ${p}\n  ${String(result.rps).padStart(5)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  ` +
          `CPU/request server ${cpu.serverMs.toFixed(2)} ms + PostgreSQL ${cpu.pgMs.toFixed(2)} ms = ${(cpu.serverMs + cpu.pgMs).toFixed(2)} ms  ` +
          `load average ${row.loadavgBefore} → ${row.loadavgAfter}${bad.length ? `  unexpected ${JSON.stringify(Object.fromEntries(bad))}` : ''}\n`,
      );
    }
  }
  await server.stop();
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'dates-large.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, from: FROM ?? null, seconds: SECONDS, connections: CONNECTIONS, rows }, null, 2) + '\n',
);
await db.dispose();
