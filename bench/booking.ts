// Booking benchmark (issue "Booking core"): orders spread over many slots, one hot slot, and live
// availability reads, each next to the bare Fastify + pg baseline measured in the same run.
//   npx tsx bench/booking.ts            (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/booking.ts
//   BENCH_SECONDS=8 (per scenario)
// Prints req/s, p50/p99 (ms), server RSS and the ratio to the baseline; writes bench/results/booking.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { museums, quotas, ticketQuotas, tickets } from '../packages/server/src/db/schema/index.ts';
import { addDays, isoInZone, localDateOf, zonedInstant } from '../packages/server/src/domain/time.ts';
import { benchDatabase } from './lib/db.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium, startBaseline } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ZONE = 'Europe/Berlin';
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;

// Catalogue: one museum, a slot quota big enough never to sell out, a time-slot ticket 09:00–17:30.
const [museum] = await orm
  .insert(museums)
  .values({ title: { en: 'Bench Museum' }, timeZone: ZONE, openingHours: Array(7).fill([540, 1080]) })
  .returning();
const [quota] = await orm.insert(quotas).values({ museumId: museum!.id, name: 'slots', kind: 'slot', capacity: 2_000_000 }).returning();
const [ticket] = await orm
  .insert(tickets)
  .values({ museumId: museum!.id, title: { en: 'Admission' }, ticketType: 'time_slot', priceCents: 1400, firstEntry: 540, lastEntry: 1050, entryDuration: 30, maxPersons: 1000 })
  .returning();
// A second ticket on the same quota (a reduced rate), for /tickets/capacities.
const [reduced] = await orm
  .insert(tickets)
  .values({ museumId: museum!.id, title: { en: 'Reduced' }, ticketType: 'time_slot', priceCents: 900, firstEntry: 540, lastEntry: 1050, entryDuration: 30, maxPersons: 1000 })
  .returning();
await orm.insert(ticketQuotas).values([
  { ticketId: ticket!.id, quotaId: quota!.id },
  { ticketId: reduced!.id, quotaId: quota!.id },
]);
const { token } = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench' });

const today = localDateOf(new Date(), ZONE);
const slots: string[] = [];
for (let d = 1; d <= 30; d++) {
  for (let m = 540; m <= 1050; m += 30) slots.push(isoInZone(zonedInstant(addDays(today, d), m, ZONE), ZONE));
}
const hotSlot = slots[5]!;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const orderBody = (time: string) => ({
  items: [{ type: 'Ticket', attributes: { id: ticket!.id, quantity: 1, time } }],
  finalize: true,
});

const atrium = await startAtrium(db.url);
const baseline = await startBaseline(db.url);
const auth = { authorization: `Bearer ${token}` };

type Row = { scenario: string; atrium: LoadResult; baseline: LoadResult; rssMb: number; target: string };
const rows: Row[] = [];
// BENCH_ONLY=spread (a substring of the scenario names) runs only the matching scenarios.
const only = process.env.BENCH_ONLY;
async function scenario(name: string, target: string, a: Parameters<typeof load>[0], b: Parameters<typeof load>[0]) {
  if (only && !name.includes(only)) return;
  // A short warm-up so JIT and pools are hot, then the measured run.
  await load({ ...a, seconds: 2 });
  const ra = await load(a);
  const rssMb = atrium.rssMb();
  await load({ ...b, seconds: 2 });
  const rb = await load(b);
  rows.push({ scenario: name, atrium: ra, baseline: rb, rssMb, target });
  process.stdout.write(`  ${name}: ${ra.rps} req/s (baseline ${rb.rps})\n`);
}

const availDate = addDays(today, 2);
await scenario(
  'availability /tickets/:id/capacity, 50 conn',
  'p99 ≤ 25 ms, ≥ 80 % of bare SELECT',
  { url: `${atrium.base}/api/v4/tickets/${ticket!.id}/capacity?date=${availDate}`, connections: 50, seconds: SECONDS, headers: auth },
  { url: `${baseline.base}/select/1`, connections: 50, seconds: SECONDS, path: () => `/select/${1 + Math.floor(Math.random() * 2000)}` },
);
await scenario(
  'availability /tickets/capacities (2 tickets, 1 quota), 50 conn',
  'p99 ≤ 25 ms, ≥ 80 % of bare SELECT',
  { url: `${atrium.base}/api/v4/tickets/capacities?ticket_ids=${ticket!.id},${reduced!.id}&date=${availDate}`, connections: 50, seconds: SECONDS, headers: auth },
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
