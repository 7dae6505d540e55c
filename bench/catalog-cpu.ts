// CPU time per uncached catalogue request, robust to a machine shared with other work: the
// Node server's and its PostgreSQL backends' CPU ticks
// (/proc/<pid>/stat) over a 4 s run at 10 connections, divided by the requests served, for the
// uncached public ticket list, the bare same-rows route and constant JSON. `large` as the first
// argument adds 2,000 tickets and 50,000 event dates and measures page 40, q= and /dates.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/catalog-cpu.ts [large]
// Linux only (procfs; 100 clock ticks per second).
import fs from 'node:fs';
import pg from 'pg';
import { benchDatabase } from './lib/db.ts';
import { load } from './lib/load.ts';
import { startAtrium, startBaseline } from './lib/servers.ts';
const TICK = 100; // clock ticks per second (getconf CLK_TCK)
const db = await benchDatabase();
const pool = db.database.pool;
const [{ id: qid }] = (await pool.query(`with m as (insert into museums (title, time_zone, opening_hours) values ('{"de":"Bench-Museum","en":"Bench Museum"}','Europe/Berlin','[[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080]]') returning id) insert into quotas (museum_id, name, kind, capacity) select id, 'q', 'slot', 500 from m returning id`)).rows;
await pool.query(`with t as (insert into tickets (museum_id, title, description, ticket_type, price_cents, reseller_price_cents, first_entry, last_entry, entry_duration, sales_channels)
  select 1, jsonb_build_object('de', 'Eintritt ' || g, 'en', 'Admission ' || g), jsonb_build_object('de', repeat('Zutritt zu allen Dauerausstellungen. ', 4), 'en', repeat('Entry to every permanent exhibition. ', 4)),
   case when g % 3 = 0 then 'normal' else 'time_slot' end, 800 + g * 50, 700 + g * 50, 540, 1050, case when g % 3 = 0 then null else 30 end, '{shop,reseller}' from generate_series(1, 30) g returning id)
  insert into ticket_quotas select id, $1 from t`, [qid]);
const large = process.argv[2] === 'large';
if (large) {
  await pool.query(`
  with m as (select 1 as id),
  t as (insert into tickets (museum_id, title, description, ticket_type, price_cents, first_entry, last_entry, entry_duration, sales_channels)
        select m.id, jsonb_build_object('de', 'Karte ' || lpad(g::text, 4, '0'), 'en', 'Ticket ' || lpad(g::text, 4, '0')),
               '{"de":"Zutritt zu allen Dauerausstellungen.","en":"Entry to every permanent exhibition."}', 'time_slot', 1000 + g, 540, 1050, 30, '{shop,reseller}'
          from m, generate_series(1, 2000) g returning id),
  q as (insert into ticket_quotas (ticket_id, quota_id) select id, $1 from t where id % 2 = 0 returning 1),
  e as (insert into events (museum_id, title, price_cents) select m.id, jsonb_build_object('de', 'Führung ' || g, 'en', 'Guided tour ' || g), 1200 from m, generate_series(1, 100) g returning id)
  insert into event_dates (event_id, start_at, seats_max)
  select e.id, date_trunc('day', now()) + (d || ' days')::interval + ((10 + (e.id % 8)) || ' hours')::interval, 30
    from e, generate_series(0, 499) d`, [qid]);
}
await pool.query('analyze');
const admin = new pg.Client({ connectionString: db.url });
await admin.connect();
const ticks = (pid: number) => { try { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); } catch { return 0; } };
async function pgPids(app: string) { return (await admin.query(`select pid from pg_stat_activity where datname = current_database() and application_name = $1`, [app])).rows.map((r) => r.pid as number); }
async function measure(label: string, url: string, serverPid: number, app: string) {
  await load({ url, connections: 10, seconds: 2 });
  const pids = await pgPids(app);
  const n0 = ticks(serverPid); const p0 = pids.map(ticks);
  const r = await load({ url, connections: 10, seconds: 4 });
  const n1 = ticks(serverPid); const p1 = pids.map(ticks);
  for (let i = 0; i < pids.length; i++) if (!p1[i]) p0[i] = 0;
  const reqs = r.ok + r.non2xx;
  const node = ((n1 - n0) * 1000 / TICK) / reqs; const pgc = (p1.reduce((a, b) => a + b, 0) - p0.reduce((a, b) => a + b, 0)) * 1000 / TICK / reqs;
  console.log(`${label.padEnd(48)} ${String(r.rps).padStart(5)} req/s  node ${node.toFixed(2)} ms  pg ${pgc.toFixed(2)} ms CPU/request  (${reqs} requests, ${JSON.stringify(r.statuses)})`);
}
const a = await startAtrium(db.url, { ATRIUM_CATALOG_CACHE: '0' });
const b = await startBaseline(db.url);
await load({ url: `${a.base}/api/v4/tickets`, connections: 10, seconds: 3 });
await measure('bare same-rows /tickets', `${b.base}/tickets`, b.pid, '');
await measure('atrium /api/v4/tickets uncached', `${a.base}/api/v4/tickets`, a.pid, 'atrium');
await measure('bare constant JSON', `${b.base}/const`, b.pid, '');
if (large) {
  await measure('atrium large ?page=40', `${a.base}/api/v4/tickets?page=40`, a.pid, 'atrium');
  await measure('atrium large ?q=Ticket 12', `${a.base}/api/v4/tickets?q=${encodeURIComponent('Ticket 12')}`, a.pid, 'atrium');
  await measure('atrium large /dates', `${a.base}/api/v4/dates`, a.pid, 'atrium');
}
await a.stop(); await b.stop(); await admin.end(); await db.dispose();
