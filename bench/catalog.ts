// Catalogue (master data) read benchmark: the public ticket list warm, a reseller's list, and
// If-None-Match revalidation, each in three cache modes, next to a bare Fastify constant-JSON route
// measured in the same run:
// - everything cold (ATRIUM_CATALOG_CACHE=0: no cache at all, every row read and rendered);
// - an answer-cache miss (ATRIUM_CATALOG_CACHE=rows: every cache but the answer cache, so each
//   request is what a miss costs: a new filter, search, page, or the first read after an edit;
//   the rows' JSON fragments are warm, src/cache/rows.ts). This is what the figures call the "uncached list";
// - the answer cache on (default). Goal: the warm public list at ≥ 50 % of constant JSON.
// Both uncached public lists are compared with the bare same-rows route (baseline-server.ts
// /tickets: the same page in one prepared query; goal: ≥ 0.5 of it, ≥ 3,000 req/s, p99 ≤
// 50 ms), and a large catalogue (2,000 tickets, 50,000 event dates) gives list and q= search
// times as an answer-cache miss and fully cold (goal p99 ≤ 50 ms). Every scenario reports CPU
// time per request of the server, its PostgreSQL backends and the load generator (this process).
//   npx tsx bench/catalog.ts
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/catalog.ts
//   BENCH_SECONDS=8 (per scenario), BENCH_CONNECTIONS=50
// Writes bench/results/catalog.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { shopCatalogue } from './lib/catalogue.ts';
import { processCpu } from './lib/cpu.ts';
import { benchDatabase } from './lib/db.ts';
import { seedLargeCatalogue } from './lib/large-catalogue.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium, startBaseline, type Child } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;

// The 30-ticket shop page of bench/lib/catalogue.ts.
const { quotaId } = await shopCatalogue(orm);
const { token } = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench' });
const reseller = { authorization: `Bearer ${token}` };

const baseline = await startBaseline(db.url);
type Mode = 'off' | 'rows' | 'all';
const MODE_ENV: Record<Mode, string> = { off: '0', rows: 'rows', all: 'true' };
const MODE_NAME: Record<Mode, string> = {
  off: 'everything cold (ATRIUM_CATALOG_CACHE=0)',
  rows: 'answer-cache miss, row fragments warm (ATRIUM_CATALOG_CACHE=rows)',
  all: 'answer cache on',
};
type Row = { scenario: string; mode: Mode; result: LoadResult; cpu: Cpu; constant: LoadResult; ratio: number };
const rows: Row[] = [];

// 1 s of warm-up (JIT, pools, prepared statements) keeps the script inside its share of
// `npm run bench` (all.ts) with the large-catalogue scenarios.
async function measure(url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  await load({ url, connections: CONNECTIONS, seconds: 1, headers });
  return load({ url, connections: CONNECTIONS, seconds: SECONDS, headers });
}

// CPU time per request of a server process and of the database's backends, from /proc (Linux;
// NaN elsewhere): robust to the machine's other load, which moves req/s a lot (bench/README.md).
// User + system CPU ms of a process so far (bench/lib/cpu.ts); NaN once it has ended.
function cpuMs(pid: number): number {
  const c = processCpu(pid);
  return c ? c.userMs + c.systemMs : NaN;
}
// `gen`: the load generator's own CPU (bench/lib/load.ts runs in this process), which shares the 2 cores.
type Cpu = { node: number; pg: number; gen: number };
// A server and its child processes (the workers of `serve --workers N`).
function family(pid: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}
const cpuMsOf = (pids: number[]) => pids.map(cpuMs).reduce((a, b) => a + b, 0);
async function measureCpu(url: string, pid: number, headers: Record<string, string> = {}, path?: () => string): Promise<{ result: LoadResult; cpu: Cpu }> {
  await load({ url, connections: CONNECTIONS, seconds: 1, headers, ...(path ? { path } : {}) });
  const backends = (await db.database.pool.query(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)).rows.map((r) => r.pid as number);
  const server = family(pid);
  const n0 = cpuMsOf(server);
  const p0 = backends.map(cpuMs);
  const g0 = process.cpuUsage();
  const result = await load({ url, connections: CONNECTIONS, seconds: SECONDS, headers, ...(path ? { path } : {}) });
  const g = process.cpuUsage(g0);
  const n1 = cpuMsOf(server);
  const pg = backends.map((b, i) => cpuMs(b) - p0[i]!).filter((d) => Number.isFinite(d)).reduce((a, b) => a + b, 0);
  const reqs = Math.max(1, result.ok + result.non2xx);
  return { result, cpu: { node: (n1 - n0) / reqs, pg: pg / reqs, gen: (g.user + g.system) / 1000 / reqs } };
}
const fmtCpu = (c: Cpu) =>
  `CPU/request: server ${c.node.toFixed(2)} + PostgreSQL ${c.pg.toFixed(2)} ms (+ load generator ${c.gen.toFixed(2)} ms)`;

// Each uncached public list against the bare route that selects the same rows (measured right after).
const sameRows: Partial<Record<Mode, { result: LoadResult; bare: LoadResult; cpu: Cpu; bareCpu: Cpu }>> = {};

async function scenarios(server: Child, mode: Mode) {
  const list = `${server.base}/api/v4/tickets`;
  // A fresh server compiles its route schemas in the background for its first seconds (see
  // Start-up below): a longer first warm-up keeps that out of the first scenario of each mode.
  await load({ url: list, connections: CONNECTIONS, seconds: 2 });
  const etag = (await fetch(list)).headers.get('etag')!;
  const cases: Array<[string, string, Record<string, string>]> = [
    ['public list GET /api/v4/tickets (warm)', list, {}],
    ['reseller list GET /api/v4/tickets (token)', list, reseller],
    ['public list If-None-Match → 304', list, { 'if-none-match': etag }],
  ];
  for (const [name, url, headers] of cases) {
    // Paired with a baseline run right before it: other load on the machine changes over a run,
    // so only measurements taken back to back are compared.
    const constant = await measure(`${baseline.base}/const`);
    const { result, cpu } = await measureCpu(url, server.pid, headers);
    const row = { scenario: `${name}, ${MODE_NAME[mode]}`, mode, result, cpu, constant, ratio: result.rps / constant.rps };
    rows.push(row);
    process.stdout.write(`  ${row.scenario}: ${result.rps} req/s, constant JSON ${constant.rps} req/s (${(row.ratio * 100).toFixed(0)} %); ${fmtCpu(cpu)}\n`);
    if (mode !== 'all' && !sameRows[mode] && Object.keys(headers).length === 0) {
      const { result: bare, cpu: bareCpu } = await measureCpu(`${baseline.base}/tickets`, baseline.pid);
      sameRows[mode] = { result, bare, cpu, bareCpu };
      process.stdout.write(`  bare same-rows route /tickets: ${bare.rps} req/s (this list ${(result.rps / bare.rps).toFixed(2)} of it); ${fmtCpu(bareCpu)}\n`);
    }
  }
}

for (const mode of ['off', 'rows'] as const) {
  const server = await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: MODE_ENV[mode] });
  await scenarios(server, mode);
  await server.stop();
}
// The same miss with `serve --workers 2` (docs/operations.md): a single process tops out when its
// one event loop is busy, with the second core partly idle.
const workers = await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: MODE_ENV.rows }, ['--workers', '2']);
const workersList = `${workers.base}/api/v4/tickets`;
await load({ url: workersList, connections: CONNECTIONS, seconds: 2 });
const twoWorkers = await measureCpu(workersList, workers.pid);
const twoWorkersBare = await measureCpu(`${baseline.base}/tickets`, baseline.pid);
await workers.stop();
process.stdout.write(`  public list, answer-cache miss (rows), --workers 2: ${twoWorkers.result.rps} req/s, p99 ${twoWorkers.result.p99} ms; ${fmtCpu(twoWorkers.cpu)}; bare same-rows route right after: ${twoWorkersBare.result.rps} req/s\n`);
const cached = await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: MODE_ENV.all });
await scenarios(cached, 'all');
const rssMb = cached.rssMb();
await cached.stop();
await baseline.stop();

// A large catalogue in a second museum: 2,000 tickets (1,000 of them on the quota) and 50,000
// event dates of 100 events over the next 500 days, inserted in a few statements. Measured
// without the cache: the first page, a page deep inside, a `q=` search and the event dates list.
const seeded = await seedLargeCatalogue(db.database.pool, quotaId);
// Measured as autovacuum leaves such an import within a minute (its insert threshold is 1,000
// rows): VACUUMed, every page all-visible. Right after the import, and with autovacuum starting in
// the middle of a scenario, the figures depended on its timing (docs/adr/0022-catalogue-read-path.md).
await db.database.pool.query('vacuum analyze');
const museumIds = (await db.database.pool.query<{ id: number }>('select id from museums order by id')).rows.map((r) => r.id).join(',');
// With the caches on, a list keeps its total per condition (ADR 0022), so a repeated URL, and
// the other pages of its condition, do not count again. Two more scenarios say what that leaves
// out: pages 1–82 in turn (one condition), and a new condition on every request (every museum
// and one id that is none, different each time: the same 2,030 tickets, counted every time).
let turn = 0;
const largeCases: Array<[string, string | (() => string)]> = [
  ['large: GET /api/v4/tickets (2,030 tickets), first page', '/api/v4/tickets'],
  ['large: GET /api/v4/tickets?page=40 (deep page)', '/api/v4/tickets?page=40'],
  ['large: GET /api/v4/tickets?page=1…82 (each page in turn)', () => `/api/v4/tickets?page=${1 + (turn++ % 82)}`],
  ['large: GET /api/v4/tickets?page=40&by_museum_ids=… (a new condition each request)', () => `/api/v4/tickets?page=40&by_museum_ids=${museumIds},${1_000_000 + turn++}`],
  ['large: GET /api/v4/tickets?q=Ticket 12 (search)', `/api/v4/tickets?q=${encodeURIComponent('Ticket 12')}`],
  ['large: GET /api/v4/dates (event dates, rest of the month)', '/api/v4/dates'],
];
const largeRows: Array<{ scenario: string; mode: Mode; result: LoadResult; cpu: Cpu }> = [];
for (const mode of ['rows', 'off'] as const) {
  const large = await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: MODE_ENV[mode] });
  // A fresh server compiles its route schemas in the background for its first seconds (see
  // Start-up below): a longer first warm-up keeps that out of the first scenario.
  await load({ url: `${large.base}/api/v4/tickets`, connections: CONNECTIONS, seconds: 2 });
  // /dates is never answer-cached (its seats are live); with the caches on it reads what its
  // condition selects from the master-data memo and only the seats per page (ADR 0022), which is
  // what `rows` measures for it (the same as the default mode's), and cold without.
  for (const [name, p] of largeCases) {
    const { result, cpu } = typeof p === 'string' ? await measureCpu(`${large.base}${p}`, large.pid) : await measureCpu(large.base, large.pid, {}, p);
    largeRows.push({ scenario: `${name}, ${MODE_NAME[mode]}`, mode, result, cpu });
    process.stdout.write(`  ${name}, ${MODE_NAME[mode]}: ${result.rps} req/s, p99 ${result.p99} ms; ${fmtCpu(cpu)}\n`);
  }
  await large.stop();
}

const fmt = (r: LoadResult) => `${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms`;
const bad = (r: LoadResult) => Object.entries(r.statuses).filter(([s]) => !/^(200|304)$/.test(s));
process.stdout.write(
  `\nCatalogue benchmark — ${db.where}, ${SECONDS}s per scenario, ${CONNECTIONS} connections, node ${process.version}, ` +
    `${os.availableParallelism()} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n` +
    `ratio = atrium / constant-JSON baseline measured right before it\n`,
);
for (const r of rows) {
  const b = bad(r.result);
  process.stdout.write(
    `${r.scenario}\n  atrium   ${fmt(r.result)}  ${fmtCpu(r.cpu)}${b.length ? `  unexpected ${JSON.stringify(Object.fromEntries(b))}` : ''}\n` +
      `  constant ${fmt(r.constant)}\n  ratio    ${r.ratio.toFixed(2)}\n`,
  );
}
process.stdout.write(`server RSS with warm cache ${rssMb} MB; goal: warm public list ≥ 0.50 of constant JSON\n`);
for (const mode of ['rows', 'off'] as const) {
  const pair = sameRows[mode];
  if (!pair) continue;
  const ratio = pair.result.rps / pair.bare.rps;
  process.stdout.write(
    `\npublic list, ${MODE_NAME[mode]}, vs the bare same-rows route (baseline-server.ts /tickets, right after it)\n` +
      `  atrium   ${fmt(pair.result)}  ${fmtCpu(pair.cpu)}\n  bare     ${fmt(pair.bare)}  ${fmtCpu(pair.bareCpu)}\n` +
      `  ratio    ${ratio.toFixed(2)}` +
      (mode === 'rows' ? `   issue #19's uncached list; goal: ≥ 0.50, ≥ 3,000 req/s, p99 ≤ 50 ms\n` : `   (today's cold figure, for comparison)\n`),
  );
}
process.stdout.write(
  `\npublic list, answer-cache miss (rows), atrium serve --workers 2, vs the bare same-rows route right after it\n` +
    `  atrium   ${fmt(twoWorkers.result)}  ${fmtCpu(twoWorkers.cpu)}\n  bare     ${fmt(twoWorkersBare.result)}  ${fmtCpu(twoWorkersBare.cpu)}\n` +
    `  ratio    ${(twoWorkers.result.rps / twoWorkersBare.result.rps).toFixed(2)}   goal: ≥ 0.50, ≥ 3,000 req/s, p99 ≤ 50 ms\n`,
);
process.stdout.write(`\nlarge catalogue (seeded in ${seeded} ms); goal p99 ≤ 50 ms\n`);
for (const r of largeRows) {
  const b = bad(r.result);
  process.stdout.write(`${r.scenario}\n  atrium   ${fmt(r.result)}  ${fmtCpu(r.cpu)}${b.length ? `  unexpected ${JSON.stringify(Object.fromEntries(b))}` : ''}\n`);
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'catalog.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, connections: CONNECTIONS, loadavg: os.loadavg(), rssMb, rows, sameRows, twoWorkers: { ...twoWorkers, bare: twoWorkersBare }, largeRows }, null, 2) + '\n',
);
await db.dispose();
