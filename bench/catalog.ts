// Catalogue (master data) read benchmark: the public ticket list warm, a reseller's list, and
// If-None-Match revalidation, each with the in-process cache (default) and without it
// (ATRIUM_CATALOG_CACHE=0, "before"), next to a bare Fastify constant-JSON route measured in the
// same run. Goal: the warm public list at ≥ 50 % of the constant-JSON baseline.
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
import { museums, quotas, ticketQuotas, tickets } from '../packages/server/src/db/schema/index.ts';
import { benchDatabase } from './lib/db.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium, startBaseline, type Child } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;

// A catalogue the size of a real museum's shop page: 30 tickets with German and English texts,
// every one sold in the shop and to resellers, so both lists return a full first page (25).
const [museum] = await orm
  .insert(museums)
  .values({ title: { de: 'Bench-Museum', en: 'Bench Museum' }, timeZone: 'Europe/Berlin', openingHours: Array(7).fill([540, 1080]) })
  .returning();
const [quota] = await orm.insert(quotas).values({ museumId: museum!.id, name: 'slots', kind: 'slot', capacity: 500 }).returning();
for (let i = 1; i <= 30; i++) {
  const [t] = await orm
    .insert(tickets)
    .values({
      museumId: museum!.id,
      title: { de: `Eintritt ${i}`, en: `Admission ${i}` },
      description: { de: 'Zutritt zu allen Dauerausstellungen. '.repeat(4), en: 'Entry to every permanent exhibition. '.repeat(4) },
      ticketType: i % 3 ? 'time_slot' : 'normal',
      priceCents: 800 + i * 50,
      resellerPriceCents: 700 + i * 50,
      salesChannels: ['shop', 'reseller'],
      firstEntry: 540,
      lastEntry: 1050,
      entryDuration: i % 3 ? 30 : null,
    })
    .returning();
  await orm.insert(ticketQuotas).values({ ticketId: t!.id, quotaId: quota!.id });
}
const { token } = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench' });
const reseller = { authorization: `Bearer ${token}` };

const baseline = await startBaseline(db.url);
type Row = { scenario: string; result: LoadResult; constant: LoadResult; ratio: number; cache: boolean };
const rows: Row[] = [];

async function measure(url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  await load({ url, connections: CONNECTIONS, seconds: 2, headers });
  return load({ url, connections: CONNECTIONS, seconds: SECONDS, headers });
}

async function scenarios(server: Child, cache: boolean) {
  const list = `${server.base}/api/v4/tickets`;
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
    const result = await measure(url, headers);
    const row = { scenario: `${name}, cache ${cache ? 'on' : 'off'}`, result, constant, ratio: result.rps / constant.rps, cache };
    rows.push(row);
    process.stdout.write(`  ${row.scenario}: ${result.rps} req/s, constant JSON ${constant.rps} req/s (${(row.ratio * 100).toFixed(0)} %)\n`);
  }
}

const before = await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: '0' });
await scenarios(before, false);
await before.stop();
const cached = await startAtrium(db.url);
await scenarios(cached, true);
const rssMb = cached.rssMb();
await cached.stop();
await baseline.stop();

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
    `${r.scenario}\n  atrium   ${fmt(r.result)}${b.length ? `  unexpected ${JSON.stringify(Object.fromEntries(b))}` : ''}\n` +
      `  constant ${fmt(r.constant)}\n  ratio    ${r.ratio.toFixed(2)}\n`,
  );
}
process.stdout.write(`server RSS with warm cache ${rssMb} MB; goal: warm public list ≥ 0.50 of constant JSON\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'catalog.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, connections: CONNECTIONS, loadavg: os.loadavg(), rssMb, rows }, null, 2) + '\n',
);
await db.dispose();
