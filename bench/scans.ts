// Entry benchmark: a gate rush, 100 connections each scanning a distinct
// single-entry barcode (POST /api/v4/scans with an entry token), paired with the bare Fastify + pg
// `GET /select/:id` baseline measured right after it in the same run, with the CPU each request
// took (server and PostgreSQL, bench/lib/cpu.ts), and the latency at a fixed offered rate.
//   npx tsx bench/scans.ts             (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/scans.ts
//   BENCH_SECONDS=8
// Target: >= 1,000 scans/s and p99 <= 20 ms. Exits 1 when an answer was not 2xx or a scan was
// not `valid` (every barcode is scanned once, so every scan must admit).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { newBarcode } from '../packages/server/src/domain/orders/barcodes.ts';
import { eventDates, events, museums, orderItems, orders } from '../packages/server/src/db/schema/index.ts';
import { benchDatabase } from './lib/db.ts';
import { cpuPerRequest } from './lib/cpu.ts';
import { load, type LoadResult, type LoadSpec } from './lib/load.ts';
import { openLoop, type OpenLoopResult } from './lib/open-loop.ts';
import { startAtrium, startBaseline } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 100;
const BARCODES = 120_000; // more than a run scans (warm-up and the fixed-rate run included)
const RATE = Number(process.env.BENCH_SCAN_RATE ?? 1000);
let lastAtrium: LoadResult | undefined;
let lastBare: LoadResult | undefined;
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;

// One event running all day (started a minute ago, 10 hours long) with BARCODES seats sold in one
// finalized order: every barcode is inside its entry window during the run.
const now = new Date();
const [museum] = await orm.insert(museums).values({ title: { en: 'Bench Museum' }, timeZone: 'Europe/Berlin', openingHours: Array(7).fill([0, 1439]) }).returning();
const [event] = await orm.insert(events).values({ museumId: museum!.id, title: { en: 'Gate rush' }, priceCents: 0 }).returning();
const [date] = await orm.insert(eventDates).values({ eventId: event!.id, startAt: new Date(now.getTime() - 60_000), duration: 600, seatsMax: BARCODES }).returning();
const owner = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench seller' });
const gate = await createToken({ db: orm, clock: systemClock }, { class: 'entry', name: 'bench gate', museumIds: [museum!.id] });
const [acc] = (await orm.execute<{ account_id: number }>(sql`select account_id from api_tokens where id = ${owner.tokenId}`)).rows;
const [order] = await orm.insert(orders).values({ accountId: acc!.account_id, token: `ord_${randomUUID()}`, status: 'finalized', source: 'api', totalPriceCents: 0, currency: 'EUR', museumIds: [museum!.id], requestHash: 'bench', createdAt: now, updatedAt: now, finalizedAt: now }).returning();
const [item] = await orm.insert(orderItems).values({ orderId: order!.id, type: 'Event', museumId: museum!.id, eventDateId: date!.id, quantity: BARCODES, startAt: date!.startAt, unitPriceCents: 0, priceCents: 0, vatPct: 0, taxIncluded: true }).returning();
const codes = new Set<string>();
while (codes.size < BARCODES) codes.add(newBarcode());
const all = [...codes];
for (let i = 0; i < all.length; i += 5000) {
  const chunk = all.slice(i, i + 5000);
  await orm.execute(sql`insert into barcodes (order_item_id, code, status, created_at)
    select ${item!.id}, c, 'valid', now() from unnest(${`{${chunk.join(',')}}`}::text[]) as c`);
}
await orm.execute(sql`analyze barcodes`);
// The seeding wrote ~50 MB of WAL: flushed now, so its checkpoint does not land in a measured run
// (a door does not bulk-load 120,000 barcodes a second before its rush). Needs a superuser.
await orm.execute(sql`checkpoint`).catch(() => {});

const atrium = await startAtrium(db.url);
const baseline = await startBaseline(db.url);
let next = 0;
const results: Record<string, number> = {};
const rush: LoadSpec = {
  url: `${atrium.base}/api/v4/scans`,
  method: 'POST',
  connections: CONNECTIONS,
  seconds: SECONDS,
  headers: { authorization: `Bearer ${gate.token}` },
  body: () => {
    if (next >= all.length) throw new Error('ran out of barcodes: raise BARCODES');
    return { scan: { barcode: all[next++], direction: 'entry' } };
  },
};
const bare: LoadSpec = { url: `${baseline.base}/select/1`, connections: CONNECTIONS, seconds: SECONDS };
// Closed loop (each connection sends its next scan when answered): the most scans/s the server
// takes. With 100 connections always waiting, mean latency is 100 / throughput (Little's law),
// so p99 <= 20 ms there would need > 5,000 scans/s; the door's latency is read at a given rate:
// the open-loop run offers RATE scans/s at random (Poisson) arrival times over up to 100 sockets.
// BENCH_ONLY=rate: only the fixed-rate runs (quicker, when working on latency).
//
// Order: a warm-up at the offered rate (JIT, pool connections, the plans of each connection),
// then the fixed-rate run, then the closed loop. The closed loop's burst of some 20,000 scans
// would otherwise be followed by autovacuum and a checkpoint during the fixed-rate run; a door's
// steady traffic is measured without that leftover of the benchmark's own previous phase. The
// bare baseline gets the same order.
const closed = process.env.BENCH_ONLY !== 'rate';
const skipped = { ok: 0, rps: 0, p50: NaN, p99: NaN, statuses: {}, errors: 0 } as unknown as LoadResult;
const atRateOf = (url: string, post: boolean, seconds: number) =>
  openLoop({ url, ...(post ? { method: 'POST' as const, headers: rush.headers, body: rush.body } : {}), rate: RATE, seconds, sockets: CONNECTIONS });
await load({ ...rush, seconds: 2 });
await atRateOf(rush.url, true, 3);
let atRate!: OpenLoopResult;
const cpuAtRate = await cpuPerRequest(orm, atrium.pid, async () => {
  atRate = await atRateOf(rush.url, true, SECONDS);
  return { ok: atRate.ok } as LoadResult;
});
const cpuAtrium = await cpuPerRequest(orm, atrium.pid, async () => (lastAtrium = closed ? await load(rush) : skipped));
const rssMb = atrium.rssMb();
await load({ ...bare, seconds: 2 });
await atRateOf(bare.url, false, 3);
const bareAtRate = await atRateOf(bare.url, false, SECONDS);
const cpuBare = await cpuPerRequest(orm, baseline.pid, async () => (lastBare = closed ? await load(bare) : skipped));
const r = { atrium: lastAtrium!, baseline: lastBare!, rssMb };
const stored = await orm.execute<{ result: string; n: number }>(sql`select result, count(*)::int as n from scans group by result`);
for (const row of stored.rows) results[row.result] = row.n;
const peak = atrium.peakRssMb();
await atrium.stop();
await baseline.stop();

const non2xx = (x: LoadResult) => Object.fromEntries(Object.entries(x.statuses).filter(([s]) => !s.startsWith('2')));
const openNon2xx = (x: OpenLoopResult) => Object.fromEntries(Object.entries(x.statuses).filter(([st]) => !st.startsWith('2')));
const ok = Object.keys(non2xx(r.atrium)).length === 0 && Object.keys(openNon2xx(atRate)).length === 0 && r.atrium.errors === 0 && Object.keys(results).every((k) => k === 'valid');
// BENCH_ONLY=rate skips the closed loop, so only the latency half of the target can be judged.
const latencyMet = atRate.p99 <= 20 && RATE >= 1000;
const verdict = closed ? (r.atrium.rps >= 1000 && latencyMet ? 'met' : 'NOT met') : `closed loop not run; p99 at 1000/s ${latencyMet ? 'met' : 'NOT met'}`;
const fmt = (x: LoadResult) => `${String(x.rps).padStart(6)} req/s  p50 ${String(x.p50).padStart(4)} ms  p99 ${String(x.p99).padStart(4)} ms`;
process.stdout.write(
  `\nEntry benchmark — ${db.where}, ${SECONDS}s, ${CONNECTIONS} connections, node ${process.version}, ${os.availableParallelism()} CPUs\n` +
    `gate rush: POST /api/v4/scans, a distinct single-entry barcode per scan\n` +
    `  atrium   ${fmt(r.atrium)}  rss ${r.rssMb} MB  ${JSON.stringify(non2xx(r.atrium))}\n` +
    `  baseline ${fmt(r.baseline)}  (bare GET /select/:id)\n` +
    `  cpu/req  atrium ${cpuAtrium.serverMs} ms server + ${cpuAtrium.pgMs} ms PostgreSQL; bare ${cpuBare.serverMs} + ${cpuBare.pgMs} ms\n` +
    `  at ${RATE}/s offered (open loop): ${atRate.ok} answered in ${SECONDS}s  p50 ${atRate.p50} ms  p99 ${atRate.p99} ms  max ${atRate.max} ms  ${JSON.stringify(openNon2xx(atRate))}; cpu/req ${cpuAtRate.serverMs} + ${cpuAtRate.pgMs} ms (+ load generator ${cpuAtRate.genMs} ms); bare p50 ${bareAtRate.p50} ms  p99 ${bareAtRate.p99} ms\n` +
    `  ratio    ${(r.atrium.rps / r.baseline.rps).toFixed(2)}   stored scans by result ${JSON.stringify(results)}\n` +
    `  target   >= 1000 scans/s (closed loop) and p99 <= 20 ms at 1000/s: ${verdict}\n` +
    `server peak RSS ${peak} MB; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)\n`,
);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'scans.json'), JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, connections: CONNECTIONS, peakRssMb: peak, loadavg: os.loadavg(), ...r, cpuAtrium, cpuBare, cpuAtRate, rate: RATE, atRate, bareAtRate, results }, null, 2) + '\n');
await db.dispose();
if (!ok) process.exitCode = 1;
