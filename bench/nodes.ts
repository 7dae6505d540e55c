// One process vs `atrium serve --workers 2` (Node cluster, shared port) on the same database:
// catalogue reads (public ticket list, warm cache) and bookings (order create+finalize spread
// over many slots). Prints req/s, p50/p99 and the ratio workers/single.
//   npx tsx bench/nodes.ts
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/nodes.ts
//   BENCH_SECONDS=8 (per scenario), BENCH_WORKERS=2
// Writes bench/results/nodes.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { museums, quotas, ticketQuotas, tickets } from '../packages/server/src/db/schema/index.ts';
import { addDays, isoInZone, localDateOf, zonedInstant } from '../packages/server/src/domain/time.ts';
import { benchDatabase } from './lib/db.ts';
import { load, type LoadResult, type LoadSpec } from './lib/load.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const ZONE = 'Europe/Berlin';
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;
const [museum] = await orm
  .insert(museums)
  .values({ title: { de: 'Bench-Museum', en: 'Bench Museum' }, timeZone: ZONE, openingHours: Array(7).fill([540, 1080]) })
  .returning();
const [quota] = await orm.insert(quotas).values({ museumId: museum!.id, name: 'slots', kind: 'slot', capacity: 2_000_000 }).returning();
const ids: number[] = [];
for (let i = 1; i <= 25; i++) {
  const [t] = await orm
    .insert(tickets)
    .values({ museumId: museum!.id, title: { de: `Eintritt ${i}`, en: `Admission ${i}` }, ticketType: 'time_slot', priceCents: 1400, firstEntry: 540, lastEntry: 1050, entryDuration: 30, maxPersons: 1000 })
    .returning();
  await orm.insert(ticketQuotas).values({ ticketId: t!.id, quotaId: quota!.id });
  ids.push(t!.id);
}
const { token } = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench' });
const auth = { authorization: `Bearer ${token}` };
const today = localDateOf(new Date(), ZONE);
const slots: string[] = [];
for (let d = 1; d <= 30; d++) for (let m = 540; m <= 1050; m += 30) slots.push(isoInZone(zonedInstant(addDays(today, d), m, ZONE), ZONE));
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;

type Mode = 'single' | 'workers';
const results: Record<string, Partial<Record<Mode, LoadResult & { rssMb: number }>>> = {};

async function run(mode: Mode) {
  // The document job worker (PDF rendering after finalize) would compete for the same 2 cores
  // and dominate the booking figures; here only the HTTP serving is compared.
  const server = await startAtrium(db.url, { ATRIUM_WORKER: 'false' }, mode === 'workers' ? ['--workers', String(WORKERS)] : []);
  const specs: Array<[string, LoadSpec]> = [
    ['catalogue: public GET /api/v4/tickets, 50 conn', { url: `${server.base}/api/v4/tickets`, connections: 50, seconds: SECONDS }],
    [
      'bookings: order create+finalize, spread, 50 conn',
      {
        url: `${server.base}/api/v4/orders`, method: 'POST', connections: 50, seconds: SECONDS, headers: auth,
        body: () => ({ items: [{ type: 'Ticket', attributes: { id: pick(ids), quantity: 1, time: pick(slots) } }], finalize: true }),
      },
    ],
  ];
  for (const [name, spec] of specs) {
    await load({ ...spec, seconds: 2 });
    const r = await load(spec);
    (results[name] ??= {})[mode] = { ...r, rssMb: server.rssMb() };
    process.stdout.write(`  ${mode}: ${name}: ${r.rps} req/s\n`);
  }
  await server.stop();
}

await run('single');
await run('workers');

const fmt = (r: LoadResult) => `${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms`;
process.stdout.write(
  `\nNodes benchmark — ${db.where}, ${SECONDS}s per scenario, node ${process.version}, ${os.availableParallelism()} CPUs ` +
    `(load generator and PostgreSQL on the same machine), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`,
);
for (const [name, r] of Object.entries(results)) {
  const bad = (x?: LoadResult) => Object.entries(x?.statuses ?? {}).filter(([s]) => !s.startsWith('2'));
  process.stdout.write(
    `${name}\n  1 process    ${fmt(r.single!)}${bad(r.single).length ? `  non-2xx ${JSON.stringify(Object.fromEntries(bad(r.single)))}` : ''}\n` +
      `  ${WORKERS} workers    ${fmt(r.workers!)}${bad(r.workers).length ? `  non-2xx ${JSON.stringify(Object.fromEntries(bad(r.workers)))}` : ''}\n` +
      `  ratio        ${(r.workers!.rps / r.single!.rps).toFixed(2)}\n`,
  );
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'nodes.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, workers: WORKERS, loadavg: os.loadavg(), results }, null, 2) + '\n',
);
await db.dispose();
