// Booking benchmark: orders spread over many slots, one hot slot, and live
// availability reads, each next to the bare Fastify + pg baseline measured in the same run.
//   npx tsx bench/booking.ts            (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/booking.ts
//   BENCH_SECONDS=8 (per scenario)
//   BENCH_ONLY=calendar runs only the scenarios whose name contains it
//   BENCH_BEFORE=<dir>: another checkout (e.g. `git archive <commit> | tar -x -C <dir>`, with
//   node_modules linked) served beside this one; the calendar scenario then alternates
//   before/this build for BENCH_ROUNDS rounds (default 3), each paired with the baseline
//   BENCH_OUTBOX=0 skips the outbox comparison; BENCH_OUTBOX_WORKER=1 adds the pair with the worker
//   delivering in the server (see "Outbox cost" below)
// Prints req/s, p50/p99 (ms), server RSS and the ratio to the baseline, and for the outbox pair the
// CPU per order (PostgreSQL backends + server, bench/lib/cpu.ts); writes bench/results/booking.json.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { webhookEndpoints } from '../packages/server/src/db/schema/index.ts';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { addDays } from '../packages/server/src/domain/time.ts';
import { last4, newSecret, sealSecret } from '../packages/server/src/domain/webhooks/secrets.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { benchDatabase } from './lib/db.ts';
import { cpuPerRequest, type CpuPerRequest } from './lib/cpu.ts';
import { load, paired, type LoadResult, type LoadSpec } from './lib/load.ts';
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

let atrium = await startAtrium(db.url);
const baseline = await startBaseline(db.url);
const auth = { authorization: `Bearer ${token}` };

type Row = { scenario: string; atrium: LoadResult; baseline: LoadResult; rssMb: number; target: string };
const rows: Row[] = [];
// CPU per request of the runs that measure it (outbox pair, calendar A/B).
const cpu: Array<CpuPerRequest & { name: string }> = [];
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
const calendar = (base: string): LoadSpec => ({
  url: `${base}/api/v4/tickets/calendar?by_ticket_ids=${ticketId}&start_at=${availDate}&end_at=${addDays(availDate, 30)}`,
  connections: 50,
  seconds: SECONDS,
  headers: auth,
});
const bareSelect: LoadSpec = { url: `${baseline.base}/select/1`, connections: 50, seconds: SECONDS, path: () => `/select/${1 + Math.floor(Math.random() * 2000)}` };
const calendarName = 'availability /tickets/calendar (31 days), 50 conn';
if (process.env.BENCH_BEFORE && (!only || calendarName.includes(only))) {
  // Both builds serve the same database; each round measures both, each paired with the bare
  // SELECT right after it, so the machine's changing load falls on both alike, and records the
  // CPU per request (server process, PostgreSQL backends), which the neighbours' load moves far
  // less than req/s. The answers must be the same bytes.
  const before = await startAtrium(db.url, {}, [], path.resolve(process.env.BENCH_BEFORE));
  const answer = async (base: string) => (await fetch(calendar(base).url, { headers: auth })).text();
  const [a, b] = [await answer(before.base), await answer(atrium.base)];
  process.stdout.write(`  calendar answers ${a === b ? 'identical' : 'DIFFER'} (${b.length} bytes)\n`);
  const target = 'p99 ≤ 25 ms, ≥ 80 % of bare SELECT';
  const run = async (side: 'before' | 'after', r: number) => {
    const server = side === 'before' ? before : atrium;
    const name = `${side} (${r}): ${calendarName}`;
    await load({ ...calendar(server.base), seconds: 2 });
    let result: LoadResult | undefined;
    const c = await cpuPerRequest(orm, server.pid, async () => (result = await load(calendar(server.base))));
    await load({ ...bareSelect, seconds: 2 });
    rows.push({ scenario: name, atrium: result!, baseline: await load(bareSelect), rssMb: server.rssMb(), target });
    cpu.push({ name, ...c });
    process.stdout.write(`  ${name}: ${result!.rps} req/s (baseline ${rows.at(-1)!.baseline.rps}), server ${c.serverMs} ms + PostgreSQL ${c.pgMs} ms CPU per request\n`);
  };
  for (let r = 1; r <= Number(process.env.BENCH_ROUNDS ?? 3); r++) {
    // Which build goes first alternates, so neither always meets the other's leftovers.
    if (r % 2) await run('before', r), await run('after', r);
    else await run('after', r), await run('before', r);
  }
  await before.stop();
} else {
  await scenario('availability /tickets/calendar (31 days), 50 conn', 'p99 ≤ 25 ms, ≥ 80 % of bare SELECT', calendar(atrium.base), bareSelect);
}
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
// Outbox cost (docs/adr/0018 and 0023): the spread scenario again, without and with
// the outbox, each paired with its own baseline run. "Without" disables the two triggers that
// write order events and their snapshots (orders_events, outbox_events_snapshot), so a booking
// writes no outbox row at all, as before the outbox; "with" is as shipped, with 3 webhook
// endpoints subscribed to every order event (they do not change the booking path: fan-out and
// delivery run in the worker, which this server, like a web-only node, does not run). With
// BENCH_OUTBOX_WORKER=1 a second pair runs the server with its worker delivering to a receiver
// here, both sides rendering the orders' PDFs alike, so the difference is fan-out and delivery.
const spread = (base: string): LoadSpec => ({ url: `${base}/api/v4/orders`, method: 'POST', connections: 50, seconds: SECONDS, headers: auth, body: () => orderBody(pick(slots)) });
const bare: LoadSpec = { url: `${baseline.base}/book`, method: 'POST', connections: 50, seconds: SECONDS, body: () => ({ slot: 1 + Math.floor(Math.random() * 2000), qty: 1 }) };
const outbox = async (on: boolean) => {
  for (const [table, trigger] of [['orders', 'orders_events'], ['outbox_events', 'outbox_events_snapshot']]) {
    await orm.execute(sql.raw(`alter table ${table} ${on ? 'enable' : 'disable'} trigger ${trigger}`));
  }
};
let delivered = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => (delivered++, res.writeHead(204).end()));
});
if (process.env.BENCH_OUTBOX !== '0' && (!only || ['spread', 'outbox'].some((k) => k.includes(only) || only.includes(k)))) {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const { accountId } = await createToken({ db: orm, clock: systemClock }, { class: 'user', name: 'bench-webhooks', rights: ['*'] });
  const now = new Date();
  for (let i = 0; i < 3; i++) {
    const secret = newSecret();
    await orm.insert(webhookEndpoints).values({ accountId, url: `${hook}/${i}`, events: ['order.created', 'order.finalized', 'order.cancelled'], secretEnc: sealSecret(secret, undefined), secretLast4: last4(secret), createdAt: now, updatedAt: now });
  }
  const events = async () => (await orm.execute<{ n: number }>(sql`select count(*)::int n from outbox_events`)).rows[0]!.n;
  const pair = async (name: string, on: boolean) => {
    await outbox(on);
    // A fresh server answers nothing for its first seconds on a loaded machine: not measured.
    await load({ ...spread(atrium.base), seconds: 3 });
    const before = await events();
    await scenario(name, on ? 'outbox cost < 10 % (ratio vs the run without)' : 'the run without the outbox', spread(atrium.base), bare);
    process.stdout.write(`    outbox rows written: ${(await events()) - before}\n`);
    // The same load once more, atrium alone, for the CPU an order costs: robust to the machine's load.
    const c = await cpuPerRequest(orm, atrium.pid, () => load(spread(atrium.base)));
    cpu.push({ name, ...c });
    process.stdout.write(`    CPU per order: PostgreSQL ${c.pgMs} ms, server ${c.serverMs} ms (${c.ok} orders)\n`);
  };
  // Alternating rounds: the machine's other load drifts, and each side sees both halves of it.
  const rounds = Number(process.env.BENCH_OUTBOX_ROUNDS ?? 2);
  for (let r = 1; r <= rounds; r++) {
    await pair(`outbox off (${r}): order create+finalize, spread, 50 conn`, false);
    await pair(`outbox on, 3 endpoints (${r}): order create+finalize, spread, 50 conn`, true);
  }
  if (process.env.BENCH_OUTBOX_WORKER === '1') {
    await atrium.stop();
    // Without this the worker would first work off every earlier run's renders and events.
    await orm.execute(sql`update documents set render_pending = false where render_pending`);
    await orm.execute(sql`update outbox_events set dispatch_pending = false where dispatch_pending`);
    atrium = await startAtrium(db.url, { ATRIUM_WORKER: 'true', ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1' });
    await pair('worker on, outbox off: spread, 50 conn', false);
    await pair('worker on, outbox on, 3 endpoints delivering: spread, 50 conn', true);
    process.stdout.write(`    deliveries received during the runs: ${delivered}\n`);
  }
  await outbox(true);
}

const peak = atrium.peakRssMb();
await atrium.stop();
await baseline.stop();
receiver.close();

const fmt = (r: LoadResult) => `${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms`;
process.stdout.write(`\nBooking benchmark — ${db.where}, ${SECONDS}s per scenario, node ${process.version}\n`);
for (const r of rows) {
  const bad = Object.entries(r.atrium.statuses).filter(([s]) => !s.startsWith('2'));
  process.stdout.write(
    `${r.scenario}\n  atrium   ${fmt(r.atrium)}  rss ${r.rssMb} MB${bad.length ? `  non-2xx ${JSON.stringify(Object.fromEntries(bad))}` : ''}\n` +
      `  baseline ${fmt(r.baseline)}\n  ratio    ${(r.atrium.rps / r.baseline.rps).toFixed(2)}   target: ${r.target}\n`,
  );
}
/** Mean ratio to the paired baseline over the rounds whose name starts so. */
const rel = (name: string) => {
  const rs = rows.filter((x) => x.scenario.startsWith(name) && x.baseline.rps > 0);
  return rs.length ? rs.reduce((sum, r) => sum + r.atrium.rps / r.baseline.rps, 0) / rs.length : undefined;
};
for (const [off, on] of [['outbox off', 'outbox on'], ['worker on, outbox off', 'worker on, outbox on']]) {
  const a = rel(off!);
  const b = rel(on!);
  if (a && b) process.stdout.write(`outbox cost (${on}): ${((1 - b / a) * 100).toFixed(1)} % of the orders/s (ratio to baseline ${a.toFixed(2)} → ${b.toFixed(2)}); target < 10 %\n`);
}
const [calBefore, calAfter] = [rel('before'), rel('after')];
if (calBefore && calAfter) process.stdout.write(`calendar, mean ratio to the paired bare SELECT: before ${calBefore.toFixed(2)} → after ${calAfter.toFixed(2)}\n`);
const calCpu = (side: string) => {
  const cs = cpu.filter((c) => c.name.startsWith(side));
  return cs.length ? `server ${(cs.reduce((n, c) => n + c.serverMs, 0) / cs.length).toFixed(3)} ms + PostgreSQL ${(cs.reduce((n, c) => n + c.pgMs, 0) / cs.length).toFixed(3)} ms` : undefined;
};
if (calCpu('before') && calCpu('after')) process.stdout.write(`calendar, mean CPU per request: before ${calCpu('before')} → after ${calCpu('after')}\n`);
const cpuOf = (name: string) => {
  const cs = cpu.filter((c) => c.name.startsWith(name));
  return cs.length ? cs.reduce((sum, c) => sum + c.pgMs + c.serverMs, 0) / cs.length : undefined;
};
for (const [off, on] of [['outbox off', 'outbox on'], ['worker on, outbox off', 'worker on, outbox on']]) {
  const a = cpuOf(off!);
  const b = cpuOf(on!);
  if (a && b) process.stdout.write(`outbox CPU (${on}): ${a.toFixed(2)} → ${b.toFixed(2)} ms per order (PostgreSQL + server), +${((b / a - 1) * 100).toFixed(1)} %\n`);
}
process.stdout.write(`server peak RSS ${peak} MB\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'booking.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, peakRssMb: peak, rows, cpu }, null, 2) + '\n',
);
await db.dispose();
