// A box-office sale "on invoice" (to be paid by bank transfer) gets an invoice with a due date,
// ATRIUM_INVOICE_DUE_DAYS after the issue date, on the PDF and in the e-invoice (BT-9, all of it
// due); a sale paid in cash gets none. Rendered as the document jobs do, with the real renderers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { documents } from '../../src/db/schema/index.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { generateDocument } from '../../src/domain/documents/generateDocument.ts';
import { addDays, localDateOf } from '../../src/domain/time.ts';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import { renderInvoicePdf } from '../../src/documents/render/invoice.ts';
import { hasPdfToText, pdfPages, PDFTOTEXT_MISSING, squash } from '../helpers/pdftext.ts';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn, type Browser } from '../console/support.ts';
import { add, keyOf, linesOf } from '../desk/support.ts';

let fx: ConsoleFixture;
let desk: Browser;
before(async () => {
  fx = await consoleFixture({ env: { ATRIUM_INVOICE_DUE_DAYS: '10' } });
  desk = await signIn(fx.t, fx.staff.box_office);
});
after(() => fx.t.close());

const renderers = { invoice: renderInvoicePdf, eInvoice: renderEInvoiceXml, ticket: async () => Buffer.from(''), confirmation: async () => Buffer.from('') } as never;

/** Sells one ticket at the desk with `payment`; renders its invoice and e-invoice; returns them. */
async function sale(payment: string, min: number) {
  const before = (await fx.t.database.db.execute<{ m: number }>(sql`select coalesce(max(id), 0)::int m from orders`)).rows[0]!.m;
  // The box office's basket: one line, then sold with `payment`.
  const page = await desk.get(`/console/sale?date=${fx.day}`);
  const form = { key: keyOf(page.body), date: fx.day, time: fx.at(min) };
  const added = await add(desk, form, { [`q-T-${fx.A.ticketId}`]: '1' });
  const res = await desk.post('/console/sale', { key: form.key, date: fx.day, time: form.time, line: linesOf(added.body), op: 'sell', payment, ...(payment === 'cash' ? { given: '50' } : {}), delivery: 'print' });
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
  const orderId = (await fx.t.database.db.execute<{ m: number }>(sql`select max(id)::int m from orders`)).rows[0]!.m;
  assert.ok(orderId > before);
  const ctx = systemCtx({ db: fx.t.database.db, clock: fx.t.clock, config: fx.t.config });
  const doc = async (kind: 'invoice' | 'e_invoice') =>
    (await fx.t.database.db.select().from(documents).where(and(eq(documents.orderId, orderId), eq(documents.kind, kind))))[0]!;
  await generateDocument(ctx, { documentId: (await doc('invoice')).id }, renderers);
  await generateDocument(ctx, { documentId: (await doc('e_invoice')).id }, renderers);
  const issued = (await fx.t.database.db.execute<{ data: { due_date?: string | null; number: string } }>(sql`select data from invoices where order_id = ${orderId} and kind = 'invoice'`)).rows[0]!.data;
  return { issued, pdf: (await doc('invoice')).content!, xml: (await doc('e_invoice')).content!.toString('utf8') };
}

test('on invoice: due in 10 days, on the PDF and in the e-invoice', async (t) => {
  const { issued, pdf, xml } = await sale('invoice', 600);
  const due = addDays(localDateOf(fx.t.clock.now(), 'Europe/Berlin'), 10);
  assert.equal(issued.due_date, due);
  assert.ok(xml.includes(`<udt:DateTimeString format="102">${due.replaceAll('-', '')}</udt:DateTimeString>`), 'BT-9');
  assert.match(xml, /<ram:TotalPrepaidAmount>0\.00<\/ram:TotalPrepaidAmount>/);
  assert.doesNotMatch(xml, /<ram:DuePayableAmount>0\.00</);
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const text = squash(pdfPages(pdf)!.join(' '));
  const [y, m, d] = due.split('-') as [string, string, string];
  assert.ok(text.includes(`Zahlbar ohne Abzug bis ${d}.${m}.${y.slice(2)}`) || text.includes(`Zahlbar ohne Abzug bis ${d}.${m}.${y}`), text);
  assert.ok(text.includes(issued.number));
  assert.ok(!text.includes('Bezahlt mit der Bestellung'));
});

test('paid in cash: no due date, nothing due', async (t) => {
  const { issued, pdf, xml } = await sale('cash', 630);
  assert.equal(issued.due_date, null);
  assert.doesNotMatch(xml, /DueDateDateTime/);
  assert.match(xml, /<ram:DuePayableAmount>0\.00<\/ram:DuePayableAmount>/);
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  assert.ok(squash(pdfPages(pdf)!.join(' ')).includes('Bezahlt mit der Bestellung'));
});
