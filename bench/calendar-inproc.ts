// In-process CPU per request of `/tickets/calendar` (31 days) next to `/tickets/:id/capacity`
// (one day), on the booking benchmark's catalogue, with the production caches (master-data memo,
// token cache) as `atrium serve` has them. 1,000 requests of warm-up through app.inject (10 at a
// time), then 3,000 measured per endpoint. Prints CPU per request and writes a V8 profile of the
// calendar run to /tmp/calendar.cpuprofile (open in Chrome DevTools or speedscope).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/calendar-inproc.ts
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import { buildApp } from '../packages/server/src/app.ts';
import { startCaches } from '../packages/server/src/cache/index.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { addDays } from '../packages/server/src/domain/time.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { benchDatabase } from './lib/db.ts';

const N = Number(process.env.BENCH_REQUESTS ?? 3000);
const db = await benchDatabase();
const { ticketIds, token, today } = await slotCatalogue(db.database.db, ['Admission']);
const config = loadConfig({ ATRIUM_DATA_DIR: '/nonexistent', ATRIUM_RESELLER_RATE_LIMIT: '1000000' });
const caches = await startCaches(db.url, config, { info() {}, warn() {}, error() {} } as never);
const app = await buildApp({ database: db.database, config, clock: systemClock, logger: false, ...(caches ? { caches } : {}) });
const date = addDays(today, 2);
const urls = {
  calendar: `/api/v4/tickets/calendar?by_ticket_ids=${ticketIds[0]}&start_at=${date}&end_at=${addDays(date, 30)}`,
  capacity: `/api/v4/tickets/${ticketIds[0]}/capacity?date=${date}`,
};
const headers = { authorization: `Bearer ${token}` };
const run = async (url: string, n: number) => {
  for (let i = 0; i < n; i += 10) {
    const rs = await Promise.all(Array.from({ length: 10 }, () => app.inject({ method: 'GET', url, headers })));
    if (rs[0]!.statusCode !== 200) throw new Error(`${url}: ${rs[0]!.statusCode} ${rs[0]!.body}`);
  }
};
const s = new Session();
s.connect();
for (const [name, url] of Object.entries(urls)) {
  await run(url, 1000);
  const prof = process.env.BENCH_PROFILE !== '0';
  if (prof) await s.post('Profiler.enable'), await s.post('Profiler.start');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run(url, N);
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  if (prof) fs.writeFileSync(`/tmp/${name}.cpuprofile`, JSON.stringify((await s.post('Profiler.stop')).profile));
  console.log(`${name}: cpu ${((c.user + c.system) / 1000 / N).toFixed(3)} ms/request, wall ${(wall / N).toFixed(3)} ms`);
}
const body = (await app.inject({ method: 'GET', url: urls.calendar, headers })).body;
console.log(`calendar answer: ${body.length} bytes, sha1 ${(await import('node:crypto')).createHash('sha1').update(body).digest('hex')}`);
await app.close();
await db.dispose();
