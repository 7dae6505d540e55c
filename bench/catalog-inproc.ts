// In-process CPU time and a V8 profile of the uncached public ticket list: the app
// built without caches on a throwaway database with the catalogue benchmark's 30 tickets, 1,000
// requests of warm-up through app.inject (10 at a time), then 2,000 profiled. Prints CPU per
// request and writes /tmp/inproc.cpuprofile (open in Chrome DevTools or speedscope).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/catalog-inproc.ts
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import { benchDatabase } from './lib/db.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
const db = await benchDatabase();
const pool = db.database.pool;
const [{ id: qid }] = (await pool.query(`with m as (insert into museums (title, time_zone, opening_hours) values ('{"de":"Bench-Museum","en":"Bench Museum"}','Europe/Berlin','[[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080]]') returning id) insert into quotas (museum_id, name, kind, capacity) select id, 'q', 'slot', 500 from m returning id`)).rows;
await pool.query(`with t as (insert into tickets (museum_id, title, description, ticket_type, price_cents, reseller_price_cents, first_entry, last_entry, entry_duration, sales_channels)
  select 1, jsonb_build_object('de', 'Eintritt ' || g, 'en', 'Admission ' || g), jsonb_build_object('de', repeat('Zutritt zu allen Dauerausstellungen. ', 4), 'en', repeat('Entry to every permanent exhibition. ', 4)),
   case when g % 3 = 0 then 'normal' else 'time_slot' end, 800 + g * 50, 700 + g * 50, 540, 1050, case when g % 3 = 0 then null else 30 end, '{shop,reseller}' from generate_series(1, 30) g returning id)
  insert into ticket_quotas select id, $1 from t`, [qid]);
const config = loadConfig({ ATRIUM_DATA_DIR: '/nonexistent', ATRIUM_ANON_RATE_LIMIT: '1000000', ATRIUM_PUBLIC_RATE_LIMIT: '1000000' });
const app = await buildApp({ database: db.database, config, clock: systemClock, logger: false });
const run = async (n: number) => { for (let i = 0; i < n; i += 10) await Promise.all(Array.from({ length: 10 }, () => app.inject({ method: 'GET', url: '/api/v4/tickets' }))); };
await run(1000);
const s = new Session(); s.connect(); await s.post('Profiler.enable'); await s.post('Profiler.start');
const c0 = process.cpuUsage(); const t0 = performance.now();
await run(2000);
const c = process.cpuUsage(c0); const wall = performance.now() - t0;
const { profile } = await s.post('Profiler.stop');
fs.writeFileSync('/tmp/inproc.cpuprofile', JSON.stringify(profile));
console.log('per request: cpu', ((c.user + c.system) / 1000 / 2000).toFixed(3), 'ms, wall', (wall / 2000).toFixed(3), 'ms');
await app.close(); await db.dispose();
