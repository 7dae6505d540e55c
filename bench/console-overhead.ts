// Does the staff console cost the API anything? The goal is that the API benchmarks stay
// within 5 % of their figures without it. The console is an encapsulated Fastify plugin under
// /console (docs/adr/0021-staff-console.md); ATRIUM_CONSOLE=0 leaves it out of the same build.
// This starts the server with and without it on one database, alternating rounds so load drift
// on a shared machine hits both sides alike, and measures two API reads that run no console code:
// a reseller's cached ticket list and a ticket's live capacity.
//   npx tsx bench/console-overhead.ts        BENCH_SECONDS=4 (per round), BENCH_ROUNDS=3
import { benchDatabase } from './lib/db.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const db = await benchDatabase();
const cat = await slotCatalogue(db.database.db);
const paths = { 'reseller list /api/v4/tickets': '/api/v4/tickets', 'capacity /tickets/:id/capacity': `/api/v4/tickets/${cat.ticketIds[0]}/capacity?date=${cat.today}` };
const sums: Record<string, { on: number[]; off: number[] }> = {};

async function round(consoleOn: boolean) {
  const server = await startAtrium(db.url, { ATRIUM_CONSOLE: consoleOn ? '1' : '0' });
  try {
    for (const [name, p] of Object.entries(paths)) {
      const url = server.base + p;
      const headers = { authorization: `Bearer ${cat.token}` };
      await load({ url, connections: 50, seconds: 1, headers });
      const r: LoadResult = await load({ url, connections: 50, seconds: SECONDS, headers });
      (sums[name] ??= { on: [], off: [] })[consoleOn ? 'on' : 'off'].push(r.rps);
    }
  } finally {
    await server.stop();
  }
}

for (let i = 0; i < ROUNDS; i++) {
  await round(i % 2 === 0);
  await round(i % 2 !== 0);
}
await db.dispose();

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
process.stdout.write(`\nConsole overhead on the API — ${ROUNDS} alternating rounds of ${SECONDS} s each side, 50 connections\n`);
for (const [name, { on, off }] of Object.entries(sums)) {
  const ratio = sum(on) / sum(off);
  process.stdout.write(`${name}\n  console on  ${on.map(Math.round).join(' / ')} req/s\n  console off ${off.map(Math.round).join(' / ')} req/s\n  ratio on/off ${ratio.toFixed(3)}   target: ≥ 0.95\n`);
}
