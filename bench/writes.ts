// Write benchmark: reservation (hold) create and customer create, each paired
// with the bare Fastify + pg `/book` baseline (BEGIN; guarded UPDATE; INSERT; COMMIT) measured
// right after it in the same run.
//   npx tsx bench/writes.ts             (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/writes.ts
//   BENCH_SECONDS=8 (per scenario), BENCH_ONLY=customer (a substring of the scenario names)
// Prints req/s, p50/p99 (ms), server RSS, the ratio to the baseline and any non-2xx answer;
// writes bench/results/writes.json. Exits 1 when any answer was not 2xx (the figures would then
// count failures as throughput).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { slotCatalogue } from './lib/catalogue.ts';
import { benchDatabase } from './lib/db.ts';
import { paired, type LoadResult, type LoadSpec } from './lib/load.ts';
import { startAtrium, startBaseline } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;

// Holds last 15 minutes, longer than the run; 540 slots, so that no single slot's lock is hot.
const { ticketIds, token, slots } = await slotCatalogue(orm);
const ticketId = ticketIds[0]!;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
let customerSeq = 0;
const runTag = `${process.pid}-${Date.now().toString(36)}`;

const atrium = await startAtrium(db.url);
const baseline = await startBaseline(db.url);
const auth = { authorization: `Bearer ${token}` };

type Row = { scenario: string; atrium: LoadResult; baseline: LoadResult; rssMb: number; ratio: number; all2xx: boolean };
const rows: Row[] = [];
const only = process.env.BENCH_ONLY;
const bookBaseline: LoadSpec = {
  url: `${baseline.base}/book`,
  method: 'POST',
  connections: CONNECTIONS,
  seconds: SECONDS,
  body: () => ({ slot: 1 + Math.floor(Math.random() * 2000), qty: 1 }),
};
const non2xx = (r: LoadResult) => Object.fromEntries(Object.entries(r.statuses).filter(([s]) => !s.startsWith('2')));
const clean = (r: LoadResult) => Object.keys(non2xx(r)).length === 0 && r.errors === 0;

async function scenario(name: string, a: LoadSpec, b: LoadSpec) {
  if (only && !name.includes(only)) return;
  const r = await paired(a, b, atrium.rssMb);
  const row = { scenario: name, ...r, ratio: r.atrium.rps / r.baseline.rps, all2xx: clean(r.atrium) && clean(r.baseline) };
  rows.push(row);
  process.stdout.write(`  ${name}: ${r.atrium.rps} req/s (baseline ${r.baseline.rps})${row.all2xx ? '' : '  NOT ALL 2xx'}\n`);
}

await scenario(
  `reservation create (hold, quantity 1), spread over ${slots.length} slots, ${CONNECTIONS} conn`,
  {
    url: `${atrium.base}/api/v4/reservations`,
    method: 'POST',
    connections: CONNECTIONS,
    seconds: SECONDS,
    headers: auth,
    body: () => ({ reservation: { ticket_id: ticketId, quantity: 1, start_at: pick(slots) } }),
  },
  bookBaseline,
);
await scenario(
  `customer create (unique e-mail), ${CONNECTIONS} conn`,
  {
    url: `${atrium.base}/api/v4/customers`,
    method: 'POST',
    connections: CONNECTIONS,
    seconds: SECONDS,
    headers: auth,
    body: () => {
      const n = ++customerSeq;
      return { customer: { name: 'Bench', surname: `Customer ${n}`, email: `bench-${runTag}-${n}@example.org` } };
    },
  },
  bookBaseline,
);
const peak = atrium.peakRssMb();
await atrium.stop();
await baseline.stop();

const fmt = (r: LoadResult) => `${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms`;
const issues = (r: LoadResult) => {
  const bad = non2xx(r);
  return `${Object.keys(bad).length ? `  non-2xx ${JSON.stringify(bad)}` : ''}${r.errors ? `  errors/timeouts ${r.errors}` : ''}`;
};
const load3 = os.loadavg().map((l) => l.toFixed(2));
process.stdout.write(
  `\nWrite benchmark — ${db.where}, ${SECONDS}s per scenario, ${CONNECTIONS} connections, node ${process.version}, ${os.availableParallelism()} CPUs\n` +
    `ratio = atrium / bare /book baseline (BEGIN; UPDATE; INSERT; COMMIT) measured right after it\n`,
);
for (const r of rows) {
  process.stdout.write(
    `${r.scenario}\n  atrium   ${fmt(r.atrium)}  rss ${r.rssMb} MB${issues(r.atrium)}\n` +
      `  baseline ${fmt(r.baseline)}${issues(r.baseline)}\n  ratio    ${r.ratio.toFixed(2)}   ${r.all2xx ? 'every answer 2xx' : 'NOT every answer was 2xx: figures include failures'}\n`,
  );
}
process.stdout.write(`server peak RSS ${peak} MB\nload average ${load3.join(' ')} (1/5/15 min)\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'writes.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, connections: CONNECTIONS, peakRssMb: peak, loadavg: os.loadavg(), rows }, null, 2) + '\n',
);
await db.dispose();
if (rows.some((r) => !r.all2xx)) process.exitCode = 1;
