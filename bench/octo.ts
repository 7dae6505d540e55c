// OCTO benchmark: availability reads and reserve→confirm flows through /octo, each as a ratio to
// the go~mus-API equivalent measured in the same run (GET /tickets/:id/capacity for one day; a
// pending order then POST /orders/:id/finalize), go~mus before and after OCTO so drift shows.
//   npx tsx bench/octo.ts            (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/octo.ts
//   BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (20)
// Writes bench/results/octo.json.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays } from '../packages/server/src/domain/time.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { benchDatabase } from './lib/db.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { ticketIds, token, slots, today } = await slotCatalogue(db.database.db);
const atrium = await startAtrium(db.url);
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const days = Array.from({ length: 30 }, (_, i) => addDays(today, i + 1));
const productId = `ticket-${ticketIds[0]}`;
// "2026-12-04T10:00:00+01:00" → the OCTO availability id "2026-12-04T10:00".
const octoId = (slot: string) => slot.slice(0, 16);

async function call(method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(`${atrium.base}${url}`, { method, headers: auth, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const READS = {
  gomus: () => load({ url: `${atrium.base}/api/v4/tickets/${ticketIds[0]}/capacity?date=${today}`, path: () => `/api/v4/tickets/${ticketIds[0]}/capacity?date=${pick(days)}`, headers: auth, connections: CONNECTIONS, seconds: SECONDS }),
  octo: () => load({ url: `${atrium.base}/octo/availability`, method: 'POST', headers: auth, body: () => ({ productId, optionId: 'DEFAULT', localDate: pick(days) }), connections: CONNECTIONS, seconds: SECONDS }),
};

const FLOWS: Record<string, () => Promise<void>> = {
  gomus: async () => {
    const { order } = await call('POST', '/api/v4/orders', { items: [{ type: 'Ticket', attributes: { id: ticketIds[0], quantity: 2, time: pick(slots) } }] });
    await call('POST', `/api/v4/orders/${order.id}/finalize`, {});
  },
  octo: async () => {
    const b = await call('POST', '/octo/bookings', { uuid: randomUUID(), productId, optionId: 'DEFAULT', availabilityId: octoId(pick(slots)), unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }] });
    await call('POST', `/octo/bookings/${b.uuid}/confirm`, { contact: { fullName: 'Bench' } });
  },
};

interface Flows { name: string; perSecond: number; done: number; errors: number; firstError?: string }
async function flows(name: string, seconds = SECONDS): Promise<Flows> {
  const flow = FLOWS[name]!;
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < end) {
      try {
        await flow();
        done++;
      } catch (err) {
        errors++;
        firstError ??= String(err);
      }
    }
  }));
  const r: Flows = { name, perSecond: Math.round(done / ((performance.now() - t0) / 1000)), done, errors, ...(firstError ? { firstError } : {}) };
  process.stdout.write(`  ${name} reserve→confirm: ${r.perSecond}/s (${errors} errors)\n`);
  return r;
}

// Warm-up, unmeasured: JIT, pools, the memo.
await READS.gomus();
await READS.octo();
await flows('gomus', 2);
await flows('octo', 2);
const reads: Record<string, LoadResult> = {};
for (const [key, name] of [['gomus before', 'gomus'], ['octo', 'octo'], ['gomus after', 'gomus']] as const) {
  reads[key] = await READS[name]();
  process.stdout.write(`  ${key} availability: ${Math.round(reads[key].rps)} req/s (non-2xx ${reads[key].non2xx})\n`);
}
const writes = [await flows('gomus'), await flows('octo'), await flows('gomus')];
const peak = atrium.peakRssMb();
await atrium.stop();

const readBase = (reads['gomus before']!.rps + reads['gomus after']!.rps) / 2;
const writeBase = (writes[0]!.perSecond + writes[2]!.perSecond) / 2;
const out = {
  at: new Date().toISOString(), where: db.where, seconds: SECONDS, connections: CONNECTIONS, peakRssMb: peak,
  availability: { gomus: Math.round(readBase), octo: Math.round(reads.octo!.rps), ratio: Number((reads.octo!.rps / readBase).toFixed(2)), p99: { gomus: reads['gomus before']!.p99, octo: reads.octo!.p99 } },
  reserveConfirm: { gomus: Math.round(writeBase), octo: writes[1]!.perSecond, ratio: Number((writes[1]!.perSecond / writeBase).toFixed(2)), errors: writes.reduce((n, w) => n + w.errors, 0) },
};
process.stdout.write(`\nOCTO benchmark — ${db.where}, ${SECONDS}s per run, ${CONNECTIONS} connections, node ${process.version}\n`);
process.stdout.write(`availability     go~mus ${out.availability.gomus} req/s   OCTO ${out.availability.octo} req/s   ratio ${out.availability.ratio}\n`);
process.stdout.write(`reserve→confirm  go~mus ${out.reserveConfirm.gomus}/s       OCTO ${out.reserveConfirm.octo}/s       ratio ${out.reserveConfirm.ratio}\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'octo.json'), JSON.stringify(out, null, 2) + '\n');
await db.dispose();
