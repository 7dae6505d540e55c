// The scan store alone, in PostgreSQL(docs/adr/0028-scan-latency.md): the CPU one stored
// scan costs in its backend, for batches of first scans of distinct barcodes as a gate rush sends
// them, stored set-wise (entry_scan_store_batch, migration 0028) against the same batches stored
// one by one through entry_scan_store (how migration 0026 stored every batch). Rounds alternate
// between the two on one connection, so the machine's other load falls on both alike; the backend's
// CPU is read from /proc. Each batch is its own transaction, committed as the server commits it.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/scan-store.ts
//   BENCH_BATCH=20 BENCH_ROUNDS=40; BENCH_PRE="<sql>" runs before the rounds (to try a schema change)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { newEventId } from '../packages/server/src/domain/events/record.ts';
import { newBarcode } from '../packages/server/src/domain/orders/barcodes.ts';
import { eventDates, events, museums, orderItems, orders } from '../packages/server/src/db/schema/index.ts';
import { benchDatabase } from './lib/db.ts';

const BATCH = Number(process.env.BENCH_BATCH ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const here = path.dirname(fileURLToPath(import.meta.url));
const db = await benchDatabase();
const { db: orm, pool } = db.database;

const now = new Date();
const total = BATCH * ROUNDS * 2;
const [museum] = await orm.insert(museums).values({ title: { en: 'Bench Museum' }, timeZone: 'Europe/Berlin', openingHours: Array(7).fill([0, 1439]) }).returning();
const [event] = await orm.insert(events).values({ museumId: museum!.id, title: { en: 'Gate rush' }, priceCents: 0 }).returning();
const [date] = await orm.insert(eventDates).values({ eventId: event!.id, startAt: now, duration: 600, seatsMax: total }).returning();
const owner = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench seller' });
const gate = await createToken({ db: orm, clock: systemClock }, { class: 'entry', name: 'bench gate', museumIds: [museum!.id] });
const accountOf = async (tokenId: number) => (await orm.execute<{ account_id: number }>(sql`select account_id from api_tokens where id = ${tokenId}`)).rows[0]!.account_id;
const sellerAccount = await accountOf(owner.tokenId);
const gateAccount = await accountOf(gate.tokenId);
const [order] = await orm.insert(orders).values({ accountId: sellerAccount, token: `ord_${randomUUID()}`, status: 'finalized', source: 'api', totalPriceCents: 0, currency: 'EUR', museumIds: [museum!.id], requestHash: 'bench', createdAt: now, updatedAt: now, finalizedAt: now }).returning();
const [item] = await orm.insert(orderItems).values({ orderId: order!.id, type: 'Event', museumId: museum!.id, eventDateId: date!.id, quantity: total, startAt: date!.startAt, unitPriceCents: 0, priceCents: 0, vatPct: 0, taxIncluded: true }).returning();
const codes = new Set<string>();
while (codes.size < total) codes.add(newBarcode());
const ids = (await pool.query<{ id: string; code: string }>(
  `insert into barcodes (order_item_id, code, status, created_at) select $1, c, 'valid', now() from unnest($2::text[]) as c returning id, code`,
  [item!.id, [...codes]],
)).rows;
await pool.query('analyze');
if (process.env.BENCH_PRE) await pool.query(process.env.BENCH_PRE);

// The payload storeScan.ts sends for a first, valid entry scan of a barcode.
function payload(b: { id: string; code: string }): string {
  const at = new Date();
  const scan = { id: 0, barcode: b.code, direction: 'entry', result: 'valid', message: 'Welcome', people_count: 1, entries_used: 1, entries_allowed: 1, scanned_at: at };
  return JSON.stringify({
    scan: {
      account_id: gateAccount, device_scan_id: null, barcode: b.code, barcode_id: Number(b.id), museum_id: museum!.id, order_id: order!.id, order_item_id: item!.id,
      direction: 'entry', location: null, people_count: 1, result: 'valid', gate_result: 'valid', message: 'Welcome', entries_used: 1, entries_allowed: 1, scanned_at: at, received_at: at,
    },
    state: { barcode_id: Number(b.id), order_item_id: item!.id, museum_id: museum!.id, entries_used: 1, inside_people: 1, last_entry_at: at, last_scan_at: at, updated_at: at },
    expected: null, same: null, check: true, revise: [],
    event: { id: newEventId(), account_id: sellerAccount, museum_ids: [museum!.id], data: { scan }, created_at: at },
  });
}

const client = await pool.connect();
const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
// The backend's time on a CPU in nanoseconds (/proc/<pid>/schedstat), not /proc/<pid>/stat's
// 10 ms ticks: a round is far shorter than a tick, so ticks would only sample it.
const cpuMs = () => Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const ways = {
  set: 'select entry_scan_store_batch($1::jsonb) as r',
  // What db/repositories/entryScan.ts sends for a batch of 2-4 (migration 0029): entry_scan_store per scan.
  'one by one': 'select entry_scan_store_each($1::jsonb) as r',
} as const;
const spent: Record<keyof typeof ways, { cpu: number; wall: number; scans: number }> = { set: { cpu: 0, wall: 0, scans: 0 }, 'one by one': { cpu: 0, wall: 0, scans: 0 } };
let next = 0;
for (let round = 0; round < ROUNDS * 2; round++) {
  const way = (round % 2 === 0) === (Math.floor(round / 2) % 2 === 0) ? 'set' : 'one by one';
  const batch = `[${ids.slice(next, next + BATCH).map(payload).join(',')}]`;
  next += BATCH;
  const c0 = cpuMs();
  const t0 = performance.now();
  const r = await client.query<{ r: number[] }>({ name: `store_${way}`, text: ways[way], values: [batch] });
  spent[way].wall += performance.now() - t0;
  spent[way].cpu += cpuMs() - c0;
  spent[way].scans += BATCH;
  if (r.rows[0]!.r.some((id) => Number(id) <= 0)) throw new Error(`${way}: a scan was not stored`);
}
client.release();
const stored = Number((await pool.query(`select count(*) as n from scans`)).rows[0].n);
const eventsStored = Number((await pool.query(`select count(*) as n from outbox_events where type = 'scan.created'`)).rows[0].n);
const per = (w: keyof typeof ways) => ({ cpuMs: spent[w].cpu / spent[w].scans, wallMs: spent[w].wall / spent[w].scans });
const out = { set: per('set'), oneByOne: per('one by one') };
process.stdout.write(
  `\nScan store in PostgreSQL — ${db.where}, ${ROUNDS} batches of ${BATCH} each way, ${os.availableParallelism()} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n` +
    `  set-wise     backend CPU ${out.set.cpuMs.toFixed(3)} ms/scan, wall ${out.set.wallMs.toFixed(3)} ms/scan (commit included)\n` +
    `  one by one   backend CPU ${out.oneByOne.cpuMs.toFixed(3)} ms/scan, wall ${out.oneByOne.wallMs.toFixed(3)} ms/scan\n` +
    `  ratio        CPU ${(out.set.cpuMs / out.oneByOne.cpuMs).toFixed(2)}, wall ${(out.set.wallMs / out.oneByOne.wallMs).toFixed(2)} (set / one by one)\n` +
    `  stored ${stored} scans, ${eventsStored} scan.created events (expected ${ROUNDS * 2 * BATCH} each)\n`,
);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'scan-store.json'), JSON.stringify({ at: new Date().toISOString(), where: db.where, batch: BATCH, rounds: ROUNDS, loadavg: os.loadavg(), ...out }, null, 2) + '\n');
await db.dispose();
if (stored !== ROUNDS * 2 * BATCH || eventsStored !== stored) process.exitCode = 1;
