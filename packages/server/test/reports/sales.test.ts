// Sales reports against orders placed through the API: per-line VAT rounding, sales counted on
// the museum-local day of finalization and cancellations on the day they happened, pending
// orders not at all, the caller's museum scope, and the per-rate totals equal to what the issued
// invoices minus credit notes show (computed by the invoices' own code from their stored lines).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { testWorker, waitFor } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { computeInvoiceTotals } from '../../src/domain/pricing/vat.ts';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import { salesReport } from '../../src/domain/reports/sales.ts';
import { salesCsv } from '../../src/domain/reports/reportCsv.ts';
import { tickets } from '../../src/db/schema/index.ts';
import { eq } from 'drizzle-orm';
import { addDays, zonedInstant } from '../../src/domain/time.ts';
import * as f from '../helpers/factories.ts';
import { reportFixture, staffCtx, type ReportFixture } from './support.ts';

const t = await testApp();
let worker: Worker;
let x: ReportFixture;
let user: string, reseller: string;
// Past days: jobs (invoices) are queued at the clock's time and must be due now.
const d1 = f.localDate(-2);
const d2 = addDays(d1, 1);
const local = (date: string, min: number) => zonedInstant(date, min, 'Europe/Berlin');
const erika = { name: 'Erika', surname: 'Mustermann', email: 'erika@example.com', locale: 'de' };
const item = (id: number, quantity: number, min: number) => ({ type: 'Ticket', attributes: { id, quantity, time: x.visit(min) } });

async function order(token: string, items: object[], finalize = true) {
  const res = await t.request({ method: 'POST', url: '/api/v4/orders', token, payload: { finalize, customer: erika, items } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().order as { id: number; items: Array<{ id: number }>; total_price_cents: number };
}
async function cancel(token: string, id: number, itemIds: number[]) {
  const res = await t.request({ method: 'POST', url: `/api/v4/orders/${id}/cancellations`, token, payload: { item_ids: itemIds } });
  assert.equal(res.statusCode, 200, res.body);
}

let o1: Awaited<ReturnType<typeof order>>, o2: Awaited<ReturnType<typeof order>>;
before(async () => {
  x = await reportFixture(t);
  user = await t.token({ class: 'user' });
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t);
  t.clock.set(local(d1, 12 * 60));
  // d1: 3 × 13,99 € at 19 % on ONE line (4197) and 1 × 14,00 € at 7 %, through a user token.
  o1 = await order(user, [item(x.t19, 3, 600), item(x.t7, 1, 600)]);
  // Museum B, and a pending order that never sold anything.
  await order(user, [item(x.tB, 2, 600)]);
  await order(user, [item(x.t7, 5, 630)], false);
  // 00:30 on d2 in Berlin is still d1 in UTC: it belongs to d2. Two single 13,99 € lines (reseller).
  t.clock.set(local(d2, 30));
  o2 = await order(reseller, [item(x.t19, 1, 630), item(x.t19, 1, 660)]);
  // d2, 10:00: the 7 % admission of o1 and one line of o2 are cancelled.
  t.clock.set(local(d2, 600));
  await cancel(user, o1.id, [o1.items[1]!.id]);
  await cancel(reseller, o2.id, [o2.items[0]!.id]);
});
after(async () => {
  await worker?.stop();
  await t.close();
});

const pick = (r: { rows: Array<{ key: string; vat_pct: number }> }, key: string, rate: number) => {
  const { key: _k, label: _l, vat_pct: _v, ...amounts } = r.rows.find((x) => x.key === key && x.vat_pct === rate) as never as { key: string; label: string; vat_pct: number; quantity: number };
  return amounts;
};

describe('sales report', () => {
  test('by day: per-line rounding, finalization day, cancellations on their own day', async () => {
    const r = await salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d2, by: 'day' });
    // 4197 gross at 19 %: net round(4197 / 1.19) = 3527 (three separate lines would make 3528).
    assert.deepEqual(pick(r, d1, 19), { quantity: 3, net_cents: 3527, vat_cents: 670, gross_cents: 4197 });
    assert.deepEqual(pick(r, d1, 7), { quantity: 1, net_cents: 1308, vat_cents: 92, gross_cents: 1400 });
    // d2: +2 lines of 1399 (net 1176 each), −1 of them; −the 7 % admission of d1.
    assert.deepEqual(pick(r, d2, 19), { quantity: 1, net_cents: 1176, vat_cents: 223, gross_cents: 1399 });
    assert.deepEqual(pick(r, d2, 7), { quantity: -1, net_cents: -1308, vat_cents: -92, gross_cents: -1400 });
    assert.equal(r.rows.length, 4);
    assert.deepEqual(r.by_rate, [
      { vat_pct: 7, quantity: 0, net_cents: 0, vat_cents: 0, gross_cents: 0 },
      { vat_pct: 19, quantity: 4, net_cents: 4703, vat_cents: 893, gross_cents: 5596 },
    ]);
    // The grand total is what the orders are worth now, as the API reports them.
    const worth = await Promise.all([o1.id, o2.id].map(async (id) =>
      (await t.request({ method: 'GET', url: `/api/v4/orders/${id}`, token: user })).json().order.total_price_cents as number));
    assert.equal(r.total.gross_cents, worth[0]! + worth[1]!);
    assert.deepEqual(r.total, { quantity: 4, net_cents: 4703, vat_cents: 893, gross_cents: 5596 });
  });

  test('a one-day range sees only that day', async () => {
    const r = await salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d1, by: 'day' });
    assert.deepEqual(r.rows.map((x) => x.key), [d1, d1]);
    assert.equal(r.total.gross_cents, 5597);
  });

  test('by ticket and by channel, with names', async () => {
    const byTicket = await salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d2, by: 'ticket', locale: 'de' });
    assert.deepEqual(byTicket.rows.map((r) => [r.label, r.vat_pct, r.quantity, r.gross_cents]), [
      ['Eintritt regulär', 7, 0, 0],
      ['Führung', 19, 4, 5596],
    ]);
    const byChannel = await salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d2, by: 'channel' });
    assert.deepEqual(byChannel.rows.map((r) => [r.label.replace(/\d+/, 'N'), r.vat_pct, r.gross_cents]), [
      ['Eigene Schnittstelle (API): test-user-N', 7, 0],
      ['Eigene Schnittstelle (API): test-user-N', 19, 4197],
      ['Partner (API): test-reseller-N', 19, 1399],
    ]);
  });

  test('the CSV export: rows per product and rate, totals per rate, a formula-like name defused', async () => {
    await t.database.db.update(tickets).set({ title: { de: '=HYPERLINK("http://evil")', en: 'x' } }).where(eq(tickets.id, x.t7));
    try {
      const r = await salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d2, by: 'ticket', locale: 'de' });
      assert.equal(salesCsv(r, 'de'), [
        '\uFEFF"Produkt";"USt-Satz %";"Anzahl";"Netto";"USt";"Brutto"',
        '"\'=HYPERLINK(""http://evil"")";"7";"0";"0,00";"0,00";"0,00"',
        '"Führung";"19";"4";"47,03";"8,93";"55,96"',
        '"Summe";"7";"0";"0,00";"0,00";"0,00"',
        '"Summe";"19";"4";"47,03";"8,93";"55,96"',
        '',
      ].join('\r\n'));
    } finally {
      await t.database.db.update(tickets).set({ title: { de: 'Eintritt regulär', en: 'Admission regular' } }).where(eq(tickets.id, x.t7));
    }
  });

  test('scope: an unscoped caller sees museum B too; a scoped one gets 404 for B', async () => {
    const all = await salesReport(staffCtx(t, []), { from: d1, to: d2, by: 'day' });
    assert.equal(all.total.gross_cents, 5596 + 2000);
    const onlyB = await salesReport(staffCtx(t, []), { from: d1, to: d2, by: 'day', museum_id: x.museumB });
    assert.deepEqual(onlyB.by_rate, [{ vat_pct: 7, quantity: 2, net_cents: 1869, vat_cents: 131, gross_cents: 2000 }]);
    await assert.rejects(salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d2, by: 'day', museum_id: x.museumB }), { code: 'NOT_FOUND' });
    await assert.rejects(salesReport(staffCtx(t, [x.museumA]), { from: d1, to: d2, by: 'day', museum_id: 999999 }), { code: 'NOT_FOUND' });
  });

  test('bad ranges are refused with a clear message', async () => {
    const ctx = staffCtx(t, [x.museumA]);
    await assert.rejects(salesReport(ctx, { from: d2, to: d1, by: 'day' }), { code: 'VALIDATION_FAILED', message: 'to must not be before from' });
    await assert.rejects(salesReport(ctx, { from: '2026-02-30', to: d1, by: 'day' }), { message: /from must be a date YYYY-MM-DD/ });
    await assert.rejects(salesReport(ctx, { from: '<script>', to: 'x', by: 'day' }), { errors: ['from must be a date YYYY-MM-DD', 'to must be a date YYYY-MM-DD'] });
    await assert.rejects(salesReport(ctx, { from: '2025-01-01', to: '2026-01-02', by: 'day' }), { message: /at most 366 days/ });
  });

  test('per VAT rate, the report equals the issued invoices minus the credit notes', async () => {
    // Three invoices (every finalized order: o1, o2 and museum B's) and two credit notes.
    const issued = await waitFor('invoices and credit notes', async () => {
      const r = await t.database.db.execute<{ kind: string; data: IssuedInvoice }>(sql`select kind, data from invoices order by id`);
      return r.rows.length >= 5 ? r.rows : null;
    }, 90_000).catch(async (e) => {
      const d = await t.database.db.execute(sql`select kind, status, note, render_pending from documents order by id`);
      throw new Error(`${(e as Error).message}; documents: ${JSON.stringify(d.rows)}`);
    });
    assert.deepEqual(issued.map((i) => i.kind).sort(), ['credit_note', 'credit_note', 'invoice', 'invoice', 'invoice']);
    const rates = new Map<number, { net_cents: number; vat_cents: number; gross_cents: number }>();
    for (const inv of issued) {
      const s = inv.kind === 'invoice' ? 1 : -1;
      for (const b of computeInvoiceTotals(inv.data.lines).by_rate) {
        const a = rates.get(b.vat_pct) ?? { net_cents: 0, vat_cents: 0, gross_cents: 0 };
        a.net_cents += s * b.net_cents;
        a.vat_cents += s * b.vat_cents;
        a.gross_cents += s * b.gross_cents;
        rates.set(b.vat_pct, a);
      }
    }
    const r = await salesReport(staffCtx(t, []), { from: d1, to: d2, by: 'day' });
    assert.deepEqual(r.by_rate.map(({ quantity: _q, ...a }) => a), [...rates.entries()].sort((a, b) => a[0] - b[0]).map(([vat_pct, a]) => ({ vat_pct, ...a })));
  });
});
