// Booking benchmark (issue "Booking core"): orders spread over many slots, one hot slot, and live
// availability reads, each next to the bare Fastify + pg baseline measured in the same run.
//   npx tsx bench/booking.ts            (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/booking.ts
//   BENCH_SECONDS=8 (per scenario)
// Prints req/s, p50/p99 (ms), server RSS and the ratio to the baseline; writes bench/results/booking.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays } from '../packages/server/src/domain/time.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { benchDatabase } from './lib/db.ts';
import { paired, type LoadResult, type LoadSpec } from './lib/load.ts';
import { startAtrium, startBaseline } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;

// Two tickets on one quota (the second, a reduced rate, for /tickets/capacities); 540 slots.
const { ticketIds, token, slots, today } = await slotCatalogue(orm, ['Admission', 'Reduced']);
const [ticketId, reducedId] = ticketIds as [number, number];
const hotSlot = slots[5]!;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const orderBody = (time: string) => ({
  items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time } }],
  finalize: true,
});

const atrium = await startAtrium(db.url);
const baseline = await startBaseline(db.url);
const auth = { authorization: `Bearer ${token}` };

type Row = { scenario: string; atrium: LoadResult; baseline: LoadResult; rssMb: number; target: string };
const rows: Row[] = [];
// BENCH_ONLY=spread (a substring of the scenario names) runs only the matching scenarios.
const only = process.env.BENCH_ONLY;
async function scenario(name: string, target: string, a: LoadSpec, b: LoadSpec) {
  if (only && !name.includes(only)) return;
  const r = await paired(a, b, atrium.rssMb);
  rows.push({ scenario: name, ...r, target });
  process.stdout.write(`  ${name}: ${r.atrium.rps} req/s (baseline ${r.baseline.rps})\n`);
}

const availDate = addDays(today, 2);
await scenario(
  'availability /tickets/:id/capacity, 50 conn',
  'p99 ≤ 25 ms, ≥ 80 % of bare SELECT',
  { url: `${atrium.base}/api/v4/tickets/${ticketId}/capacity?date=${availDate}`, connections: 50, seconds: SECONDS, headers: auth },
  { url: `${baseline.base}/select/1`, connections: 50, seconds: SECONDS, path: () => `/select/${1 + Math.floor(Math.random() * 2000)}` },
);
await scenario(
  'availability /tickets/capacities (2 tickets, 1 quota), 50 conn',
  'p99 ≤ 25 ms, ≥ 80 % of bare SELECT',
  { url: `${atrium.base}/api/v4/tickets/capacities?ticket_ids=${ticketId},${reducedId}&date=${availDate}`, connections: 50, seconds: SECONDS, headers: auth },
  { url: `${baseline.base}/select/1`, connections: 50, seconds: SECONDS, path: () => `/select/${1 + Math.floor(Math.random() * 2000)}` },
);
await scenario(
  'availability /tickets/calendar (31 days), 50 conn',
  'p99 ≤ 25 ms, ≥ 80 % of bare SELECT',
  { url: `${atrium.base}/api/v4/tickets/calendar?by_ticket_ids=${ticketId}&start_at=${availDate}&end_at=${addDays(availDate, 30)}`, connections: 50, seconds: SECONDS, headers: auth },
  { url: `${baseline.base}/select/1`, connections: 50, seconds: SECONDS, path: () => `/select/${1 + Math.floor(Math.random() * 2000)}` },
);
await scenario(
  'order create+finalize, spread, 50 conn',
  '≥ 1,000 orders/s, ≥ 50 % of bare UPDATE+INSERT',
  { url: `${atrium.base}/api/v4/orders`, method: 'POST', connections: 50, seconds: SECONDS, headers: auth, body: () => orderBody(pick(slots)) },
  { url: `${baseline.base}/book`, method: 'POST', connections: 50, seconds: SECONDS, body: () => ({ slot: 1 + Math.floor(Math.random() * 2000), qty: 1 }) },
);
await scenario(
  'order create+finalize, one hot slot, 100 conn',
  '≥ 600 orders/s, p99 ≤ 250 ms',
  { url: `${atrium.base}/api/v4/orders`, method: 'POST', connections: 100, seconds: SECONDS, headers: auth, body: () => orderBody(hotSlot) },
  { url: `${baseline.base}/book`, method: 'POST', connections: 100, seconds: SECONDS, body: () => ({ slot: 7, qty: 1 }) },
);
const peak = atrium.peakRssMb();
await atrium.stop();
await baseline.stop();

const fmt = (r: LoadResult) => `${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms`;
process.stdout.write(`\nBooking benchmark — ${db.where}, ${SECONDS}s per scenario, node ${process.version}\n`);
for (const r of rows) {
  const bad = Object.entries(r.atrium.statuses).filter(([s]) => !s.startsWith('2'));
  process.stdout.write(
    `${r.scenario}\n  atrium   ${fmt(r.atrium)}  rss ${r.rssMb} MB${bad.length ? `  non-2xx ${JSON.stringify(Object.fromEntries(bad))}` : ''}\n` +
      `  baseline ${fmt(r.baseline)}\n  ratio    ${(r.atrium.rps / r.baseline.rps).toFixed(2)}   target: ${r.target}\n`,
  );
}
process.stdout.write(`server peak RSS ${peak} MB\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'booking.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, peakRssMb: peak, rows }, null, 2) + '\n',
);
await db.dispose();
