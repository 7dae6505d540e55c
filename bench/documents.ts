// Document rendering benchmark (issue "Group booking requests, contacts and documents"): a
// 10-admission order rendered as its ticket PDF and its invoice PDF, N times each, in-process
// (no database, no server: the renderers are pure functions of their input).
//   npx tsx bench/documents.ts            BENCH_RUNS=200 (per document kind)
// Prints mean/p50/p99 ms per document and the ratio to the 200 ms goal; writes
// bench/results/documents.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newBarcode } from '../packages/server/src/domain/orders/barcodes.ts';
import {
  renderInvoicePdf,
  renderTicketsPdf,
  type InvoicePdfInput,
  type TicketsPdfInput,
} from '../packages/server/src/documents/render/index.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const GOAL_MS = 200;
const here = path.dirname(fileURLToPath(import.meta.url));

// A fresh order per run: new barcodes each time, as real orders have (nothing can be cached).
function tickets(): TicketsPdfInput {
  return {
    order: { id: 100_001, reference: 'BENCH-1', token: 'tok', created_at: new Date('2026-07-01T08:00:00Z') },
    museum: { title: 'Bench Museum', time_zone: 'Europe/Berlin', location: 'Museumsinsel 1, 10178 Berlin' },
    currency: 'EUR',
    admissions: Array.from({ length: 10 }, (_, i) => ({
      title: i < 6 ? 'Adult admission' : 'Reduced admission',
      start_at: new Date('2026-07-06T09:00:00Z'),
      ticket_type: i < 6 ? 'normal' : 'reduced',
      price_cents: i < 6 ? 1400 : 900,
      vat_pct: 7,
      barcode: newBarcode(),
      status: i === 9 ? ('void' as const) : ('valid' as const),
      attendee: { name: `Visitor${i}`, surname: 'Bench' },
    })),
  };
}
const invoice: InvoicePdfInput = {
  invoice_number: 'RE-2026-100001',
  issued_at: new Date('2026-07-01T08:00:00Z'),
  time_zone: 'Europe/Berlin',
  seller: { name: 'Bench Museum', address_lines: ['Museumsinsel 1', '10178 Berlin'], vat_id: 'DE000000000' },
  buyer: { name: 'A Visitor', address_lines: ['Hauptstr. 1', '10115 Berlin'] },
  order: { id: 100_001, reference: 'BENCH-1' },
  currency: 'EUR',
  lines: [
    { title: 'Adult admission', quantity: 6, unit_price_cents: 1400, total_cents: 8400, vat_pct: 7, tax_included: true, detail: 'Monday, 6 July 2026, 11:00' },
    { title: 'Reduced admission', quantity: 3, unit_price_cents: 900, total_cents: 2700, vat_pct: 7, tax_included: true, detail: 'Monday, 6 July 2026, 11:00' },
    { title: 'Reduced admission (cancelled)', quantity: 1, unit_price_cents: 900, total_cents: 0, vat_pct: 7, tax_included: true },
  ],
};

async function measure(name: string, render: () => Promise<Buffer>) {
  for (let i = 0; i < 10; i++) await render(); // warm-up: JIT, font metrics, bwip-js tables
  const ms: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    bytes = (await render()).length;
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  ms.sort((a, b) => a - b);
  const mean = ms.reduce((s, x) => s + x, 0) / ms.length;
  const cpuMean = cpu.reduce((s, x) => s + x, 0) / cpu.length;
  return {
    name, runs: RUNS, bytes,
    meanMs: round(mean), p50Ms: round(at(ms, 0.5)), p99Ms: round(at(ms, 0.99)), maxMs: round(ms.at(-1)!),
    cpuMeanMs: round(cpuMean), cpuP99Ms: round(at(cpu, 0.99)),
  };
}
const round = (x: number) => Math.round(x * 100) / 100;
const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

const rows = [
  await measure('tickets PDF, 10 admissions', () => renderTicketsPdf(tickets())),
  await measure('invoice PDF, 3 lines', () => renderInvoicePdf(invoice)),
];
// The order's whole set: what one finalize costs the document job (sequential, one core).
rows.push(await measure('tickets + invoice', async () => Buffer.concat([await renderTicketsPdf(tickets()), await renderInvoicePdf(invoice)])));

// Wall time suffers when other processes share the cores; CPU time (user + system of this
// process) is what one render costs regardless, so both are printed. Load average for context.
const load1 = (await import('node:os')).loadavg()[0]!.toFixed(1);
process.stdout.write(`\nDocument rendering — ${RUNS} runs each, node ${process.version}, load avg ${load1}, goal ≤ ${GOAL_MS} ms per document\n`);
const f = (x: number) => x.toFixed(1).padStart(6);
for (const r of rows) {
  process.stdout.write(
    `${r.name}  (${r.bytes} B)\n  wall  mean ${f(r.meanMs)} ms  p50 ${f(r.p50Ms)}  p99 ${f(r.p99Ms)}  max ${f(r.maxMs)}   mean/goal ${(r.meanMs / GOAL_MS).toFixed(2)}  p99/goal ${(r.p99Ms / GOAL_MS).toFixed(2)}\n` +
      `  cpu   mean ${f(r.cpuMeanMs)} ms  p99 ${f(r.cpuP99Ms)}   mean/goal ${(r.cpuMeanMs / GOAL_MS).toFixed(2)}\n`,
  );
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'documents.json'),
  JSON.stringify({ at: new Date().toISOString(), node: process.version, runs: RUNS, goalMs: GOAL_MS, loadAvg: Number(load1), rows }, null, 2) + '\n',
);
