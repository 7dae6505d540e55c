// Staff console page loads (goal: page loads under 200 ms with a day of 5,000 orders):
// a day with 5,000 finalized orders (each with a customer, an item in one of 15 slots and its
// capacity allocation), then sequential page loads by a signed-in staff user, as a person at the
// desk causes them: the day sheet, and the order search by surname prefix (50 hits), by exact
// surname and by order id. Bounded: ROUNDS loads per page after 3 warm-ups. Paired with the bare
// Fastify + pg `GET /select/:id` baseline measured the same way in the same run.
//   npx tsx bench/console.ts             (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/console.ts
// Target: p95 < 200 ms for every page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { createStaffUser } from '../packages/server/src/domain/staff/users.ts';
import { zonedInstant } from '../packages/server/src/domain/time.ts';
import { museums, quotas, ticketQuotas, tickets } from '../packages/server/src/db/schema/index.ts';
import { benchDatabase } from './lib/db.ts';
import { startAtrium, startBaseline } from './lib/servers.ts';

const ORDERS = Number(process.env.BENCH_CONSOLE_ORDERS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const here = path.dirname(fileURLToPath(import.meta.url));
const db = await benchDatabase();
const { db: orm } = db.database;

const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(Date.now() + 2 * 86_400_000));
const [museum] = await orm.insert(museums).values({ title: { de: 'Benchmuseum', en: 'Bench Museum' }, timeZone: 'Europe/Berlin', openingHours: Array(7).fill([600, 1080]) }).returning();
const [quota] = await orm.insert(quotas).values({ museumId: museum!.id, name: 'Bench', kind: 'slot', capacity: 1000 }).returning();
const [ticket] = await orm.insert(tickets).values({ museumId: museum!.id, title: { de: 'Eintritt', en: 'Admission' }, ticketType: 'time_slot', priceCents: 1400, vatPct: 7, firstEntry: 600, lastEntry: 1020, entryDuration: 30 }).returning();
await orm.insert(ticketQuotas).values({ ticketId: ticket!.id, quotaId: quota!.id });
const [acc] = (await orm.execute<{ id: number }>(sql`select account_id as id from staff_console`)).rows;
const first = zonedInstant(day, 600, 'Europe/Berlin');
// 5,000 orders in one statement chain: customers, orders, items, allocations (slot = n % 15).
await orm.execute(sql`
  with c as (
    insert into customers (account_id, name, surname, email, created_at, updated_at)
    select ${acc!.id}, 'Vorname' || n, 'Nachname' || lpad(n::text, 5, '0'), 'visitor' || n || '@example.org', now(), now()
      from generate_series(1, ${ORDERS}) n returning id),
  o as (
    insert into orders (account_id, token, status, source, customer_id, total_price_cents, currency, museum_ids, request_hash, created_at, updated_at, finalized_at)
    select ${acc!.id}, 'bench_' || c.id, 'finalized', 'api', c.id, 2800, 'EUR', array[${museum!.id}]::int[], 'bench', now(), now(), now() from c returning id, customer_id),
  i as (
    insert into order_items (order_id, type, museum_id, ticket_id, quantity, start_at, unit_price_cents, price_cents, vat_pct, tax_included)
    select o.id, 'Ticket', ${museum!.id}, ${ticket!.id}, 2, ${first}::timestamptz + ((o.id % 15) * interval '30 minutes'), 1400, 2800, 7, true from o returning id, start_at)
  insert into capacity_allocations (resource, resource_id, slot_start, quantity, order_item_id, created_at)
  select 'quota', ${quota!.id}, i.start_at, 2, i.id, now() from i`);
await orm.execute(sql`analyze`);
const password = 'bench console password';
const { user } = await createStaffUser({ db: orm, clock: systemClock }, { cli: true }, { email: 'bench@example.org', role: 'admin', password, locale: 'de' });
const [someOrder] = (await orm.execute<{ id: number }>(sql`select max(id) as id from orders`)).rows;

const atrium = await startAtrium(db.url);
const baseline = await startBaseline(db.url);

async function signIn(): Promise<string> {
  const page = await fetch(`${atrium.base}/console/login`);
  const pre = /atrium_console_pre=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const res = await fetch(`${atrium.base}/console/login`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `atrium_console_pre=${pre}` },
    body: new URLSearchParams({ _csrf: csrf, email: user.email, password }).toString(),
  });
  const sid = /atrium_console=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (res.status !== 303 || !sid) throw new Error(`sign-in failed: ${res.status}`);
  return `atrium_console=${sid}`;
}

async function timed(url: string, cookie: string, must: string) {
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS + 3; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = await res.text();
    const dt = performance.now() - t0;
    if (res.status !== 200 || !body.includes(must)) throw new Error(`${url}: ${res.status} without "${must}"`);
    if (i >= 3) ms.push(dt);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]! * 10) / 10;
  return { p50: q(0.5), p95: q(0.95), max: q(1) };
}

const cookie = await signIn();
const pages: Record<string, { url: string; must: string }> = {
  'day sheet': { url: `${atrium.base}/console/day?date=${day}`, must: 'Kontingent' },
  'search by surname prefix (50 hits)': { url: `${atrium.base}/console/orders?q=nachname0`, must: '50 Treffer' },
  'search by exact surname': { url: `${atrium.base}/console/orders?q=Nachname04711`, must: '1 Treffer' },
  'search by order id': { url: `${atrium.base}/console/orders?q=${someOrder!.id}`, must: '1 Treffer' },
  'order detail': { url: `${atrium.base}/console/orders/${someOrder!.id}`, must: 'Positionen' },
};
const results: Record<string, { p50: number; p95: number; max: number }> = {};
for (const [name, p] of Object.entries(pages)) results[name] = await timed(p.url, cookie, p.must);
const base = await timed(`${baseline.base}/select/1`, '', '');
await atrium.stop();
await baseline.stop();

const met = Object.values(results).every((r) => r.p95 < 200);
process.stdout.write(
  `\nConsole benchmark — ${db.where}, ${ORDERS} orders on ${day}, ${ROUNDS} sequential loads per page, node ${process.version}, ${os.availableParallelism()} CPUs\n` +
    Object.entries(results).map(([n, r]) => `  ${n.padEnd(36)} p50 ${String(r.p50).padStart(6)} ms  p95 ${String(r.p95).padStart(6)} ms  max ${String(r.max).padStart(6)} ms  (p50 ${(r.p50 / base.p50).toFixed(1)}× baseline)\n`).join('') +
    `  ${'baseline GET /select/1'.padEnd(36)} p50 ${String(base.p50).padStart(6)} ms  p95 ${String(base.p95).padStart(6)} ms\n` +
    `  target   p95 < 200 ms on every page: ${met ? 'met' : 'NOT met'}\n` +
    `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)\n`,
);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'console.json'), JSON.stringify({ at: new Date().toISOString(), where: db.where, orders: ORDERS, rounds: ROUNDS, loadavg: os.loadavg(), results, baseline: base }, null, 2) + '\n');
await db.dispose();
if (!met) process.exitCode = 1;
