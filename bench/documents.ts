// Document rendering benchmark: a 10-admission German order rendered as its ticket PDF, its
// invoice PDF (embedded Unicode font, § 14 UStG layout) and its EN 16931 e-invoice, N times each,
// in-process (no database, no server: the renderers are pure functions of their input).
//   npx tsx bench/documents.ts            BENCH_RUNS=200 (per document kind)
// Prints mean/p50/p99 ms per document, documents per second on one core (goal ≥ 50/s for ticket
// and invoice PDFs) and the ratio to the 200 ms per-document goal; writes
// bench/results/documents.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newBarcode } from '../packages/server/src/domain/orders/barcodes.ts';
import { renderEInvoiceXml } from '../packages/server/src/documents/einvoice/build.ts';
import type { IssuedInvoice } from '../packages/server/src/domain/documents/invoiceTypes.ts';
import { renderInvoicePdf, renderTicketsPdf, type TicketsPdfInput } from '../packages/server/src/documents/render/index.ts';
import { DEMO_ISSUER } from '../packages/server/src/domain/documents/issuer.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const GOAL_MS = 200;
const GOAL_PER_SECOND = 50;
const here = path.dirname(fileURLToPath(import.meta.url));

// A fresh order per run: new barcodes each time, as real orders have (nothing can be cached).
function tickets(): TicketsPdfInput {
  return {
    locale: 'de',
    order: { id: 100_001, reference: 'BENCH-1', token: 'tok', created_at: new Date('2026-07-01T08:00:00Z') },
    museum: { title: 'Bench Museum', time_zone: 'Europe/Berlin', location: 'Museumsinsel 1, 10178 Berlin' },
    currency: 'EUR',
    admissions: Array.from({ length: 10 }, (_, i) => ({
      title: i < 6 ? 'Erwachsene' : 'Ermäßigt',
      start_at: new Date('2026-07-06T09:00:00Z'),
      end_at: new Date('2026-07-06T09:30:00Z'),
      kind: 'time_slot' as const,
      reduced: i >= 6,
      price_cents: i < 6 ? 1400 : 900,
      vat_pct: 7,
      barcode: newBarcode(),
      status: i === 9 ? ('void' as const) : ('valid' as const),
      attendee: { name: `Besucher${i}`, surname: 'Bench' },
    })),
  };
}
const slot = 'Mo., 6. Juli 2026, 11:00–11:30';
const invoice: IssuedInvoice = {
  kind: 'invoice', number: 'INV-100001', issued_at: '2026-07-01T08:00:00.000Z', locale: 'de', time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: DEMO_ISSUER,
  buyer: { name: 'Erika Mustermann', institution: null, street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', email: 'erika@example.com' },
  order: { id: 100_001, reference: 'BENCH-1' },
  service: { from: '2026-07-06', to: '2026-07-06' },
  lines: [
    { title: 'Erwachsene', detail: slot, quantity: 6, unit_price_cents: 1400, total_cents: 8400, vat_pct: 7, tax_included: true, service_date: '2026-07-06' },
    { title: 'Ermäßigt', detail: slot, quantity: 3, unit_price_cents: 900, total_cents: 2700, vat_pct: 7, tax_included: true, service_date: '2026-07-06' },
    { title: 'Audioguide', detail: slot, quantity: 1, unit_price_cents: 400, total_cents: 400, vat_pct: 19, tax_included: true, service_date: '2026-07-06' },
  ],
  refers_to: null,
  small_amount: false,
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

const one = () => ({ ...tickets(), admissions: tickets().admissions.slice(0, 1) });
// Hebrew, Arabic and mixed names go through the bidi algorithm (src/documents/render/bidi.ts);
// the Latin ones above skip it. Same documents otherwise, so the ratio is the algorithm's cost.
const RTL_NAMES = [['שרה', 'כהן'], ['محمد', 'علي'], ['Dr. محمد', 'علي (VIP)'], ['ACME', 'בע"מ 2024']] as const;
const rtlTickets = (): TicketsPdfInput => {
  const t = tickets();
  return { ...t, admissions: t.admissions.map((a, i) => ({ ...a, attendee: { name: RTL_NAMES[i % 4]![0], surname: RTL_NAMES[i % 4]![1] } })) };
};
const rtlInvoice: IssuedInvoice = { ...invoice, buyer: { ...invoice.buyer!, name: 'محمد علي (VIP)', institution: 'ACME בע"מ 2024' } };
const rows = [
  await measure('ticket PDF, 1 admission', () => renderTicketsPdf(one())),
  await measure('tickets PDF, 10 admissions', () => renderTicketsPdf(tickets())),
  await measure('tickets PDF, 10 admissions, right-to-left names', () => renderTicketsPdf(rtlTickets())),
  await measure('invoice PDF, 3 lines', () => renderInvoicePdf(invoice)),
  await measure('invoice PDF, 3 lines, right-to-left buyer', () => renderInvoicePdf(rtlInvoice)),
  await measure('e-invoice XML (CII)', () => renderEInvoiceXml(invoice)),
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
    `${r.name}  (${r.bytes} B)  ${(1000 / r.meanMs).toFixed(0)}/s wall, ${(1000 / r.cpuMeanMs).toFixed(0)}/s per core (goal ≥ ${GOAL_PER_SECOND}/s)\n  wall  mean ${f(r.meanMs)} ms  p50 ${f(r.p50Ms)}  p99 ${f(r.p99Ms)}  max ${f(r.maxMs)}   mean/goal ${(r.meanMs / GOAL_MS).toFixed(2)}  p99/goal ${(r.p99Ms / GOAL_MS).toFixed(2)}\n` +
      `  cpu   mean ${f(r.cpuMeanMs)} ms  p99 ${f(r.cpuP99Ms)}   mean/goal ${(r.cpuMeanMs / GOAL_MS).toFixed(2)}\n`,
  );
}
const row = (name: string) => rows.find((r) => r.name === name)!;
for (const [rtl, ltr] of [['tickets PDF, 10 admissions, right-to-left names', 'tickets PDF, 10 admissions'], ['invoice PDF, 3 lines, right-to-left buyer', 'invoice PDF, 3 lines']] as const) {
  process.stdout.write(`${rtl} / Latin: cpu mean ${(row(rtl).cpuMeanMs / row(ltr).cpuMeanMs).toFixed(2)}×\n`);
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'documents.json'),
  JSON.stringify({ at: new Date().toISOString(), node: process.version, runs: RUNS, goalMs: GOAL_MS, goalPerSecond: GOAL_PER_SECOND, loadAvg: Number(load1), rows: rows.map((r) => ({ ...r, perSecondWall: round(1000 / r.meanMs), perSecondCpu: round(1000 / r.cpuMeanMs) })) }, null, 2) + '\n',
);
