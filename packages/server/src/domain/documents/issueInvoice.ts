// Issues an invoice or credit note: its number, its frozen content and its e-invoice document,
// all in ONE short transaction (docs/adr/0019-invoices-and-numbering.md):
//   1. lock the document row (two runs of the same job cannot both number it),
//   2. take the next number from invoice_counter (the upsert locks that one row until commit),
//   3. insert the invoices row (number, content) and the e_invoice document (flagged for render).
// The number is used only if all of it commits; a rollback returns it with the counter's own
// update. So the sequence is gapless and unique across processes and nodes, and the hot order
// path (group commit, db/repositories/ordersBatch.ts) never touches the counter: only these jobs
// serialise on it, for the few statements between the upsert and the commit. Everything that
// is slow (loading the order, formatting) happens before the transaction.
import { insertDocument, invoiceDocumentOfOrder } from '../../db/repositories/documents/documents.ts';
import { insertInvoice, invoiceOfDocument, lockDocument, nextInvoiceNumber, numberDocument } from '../../db/repositories/documents/invoices.ts';
import { transaction } from '../../db/transaction.ts';
import type { IssuedInvoice } from './invoiceTypes.ts';
import { completeIssuer, missingIssuerSettings } from './issuer.ts';
import type { Ctx } from '../context.ts';
import { addDays, localDateOf } from '../time.ts';
import { retentionEnd, type DocumentRow } from './internal.ts';
import { buyerOf, formatInvoiceNumber, invoiceLine, invoicedItems, loadOrderRenderData } from './renderInput.ts';
import { paymentsOfInvoice } from './invoicePayments.ts';

const SMALL_AMOUNT_CENTS = 25_000; // § 33 UStDV: up to 250 € gross

export type IssueResult = { issued: IssuedInvoice } | { refused: string } | { skipped: true };

type Draft = Omit<IssuedInvoice, 'number'>;

async function existing(ctx: Ctx, documentId: number) {
  return invoiceOfDocument(ctx.db, documentId);
}

/** The content of the order's invoice, before it has a number. */
async function invoiceDraft(ctx: Ctx, orderId: number, now: Date): Promise<Draft | { refused: string } | null> {
  const seller = completeIssuer(ctx.config.invoice);
  if (!seller) {
    return { refused: `invoice not issued: the instance settings ${missingIssuerSettings(ctx.config.invoice).join(', ')} are missing (§14 UStG; see docs/operations.md)` };
  }
  const d = await loadOrderRenderData(ctx.db, ctx, orderId);
  if (!d) return null;
  const lines = invoicedItems(d).map((i) => invoiceLine(d, i));
  if (lines.length === 0) return null;
  const dates = lines.map((l) => l.service_date).sort();
  const gross = lines.reduce((s, l) => s + l.total_cents, 0);
  const allGross = lines.every((l) => l.tax_included);
  return {
    kind: 'invoice',
    issued_at: now.toISOString(),
    locale: d.locale,
    time_zone: d.museum.time_zone,
    currency: d.order.currency,
    seller,
    buyer: buyerOf(d),
    order: { id: d.order.id, reference: d.order.reference },
    service: { from: dates[0]!, to: dates.at(-1)! },
    lines,
    refers_to: null,
    small_amount: ctx.config.invoice.smallAmount && allGross && d.order.currency === 'EUR' && gross <= SMALL_AMOUNT_CENTS,
    // Booked to be paid by transfer: payable within the configured days from the issue date.
    due_date: d.order.paymentMethod === 'invoice' ? addDays(localDateOf(now, d.museum.time_zone), ctx.config.invoice.dueDays) : null,
    payments: await paymentsOfInvoice(ctx.db, d.order.id),
  };
}

/** A credit note for the document's items, in the form and language of the invoice it corrects. */
async function creditDraft(ctx: Ctx, doc: DocumentRow, invoice: IssuedInvoice, now: Date): Promise<Draft | null> {
  const d = await loadOrderRenderData(ctx.db, ctx, doc.orderId!);
  if (!d) return null;
  const ids = new Set(doc.itemIds ?? []);
  const lines = d.items.filter((i) => ids.has(i.id)).map((i) => invoiceLine({ ...d, locale: invoice.locale }, i));
  if (lines.length === 0) return null;
  const dates = lines.map((l) => l.service_date).sort();
  return {
    ...invoice,
    kind: 'credit_note',
    issued_at: now.toISOString(),
    service: { from: dates[0]!, to: dates.at(-1)! },
    lines,
    refers_to: { number: invoice.number, issued_at: invoice.issued_at },
    small_amount: false,
    due_date: null,
  };
}

/** Numbers and stores a draft for the document, unless a concurrent run already did. */
async function commitIssue(ctx: Ctx, doc: DocumentRow, draft: Draft, invoiceId: number | null): Promise<IssuedInvoice> {
  return transaction(ctx.db, async (tx) => {
    await lockDocument(tx, doc.id);
    const done = await invoiceOfDocument(tx, doc.id);
    if (done) return done.data as IssuedInvoice;
    const n = await nextInvoiceNumber(tx);
    const issued: IssuedInvoice = { ...draft, number: formatInvoiceNumber(n) };
    const now = ctx.clock.now();
    await insertInvoice(tx, { number: n, kind: draft.kind, orderId: doc.orderId!, documentId: doc.id, invoiceId, issuedAt: new Date(issued.issued_at), data: issued });
    const base = draft.kind === 'invoice' ? 'invoice' : 'credit-note';
    await numberDocument(tx, doc.id, n, `${base}-${issued.number}.pdf`);
    await insertDocument(tx, {
      kind: 'e_invoice',
      orderId: doc.orderId,
      accountId: doc.accountId,
      museumIds: doc.museumIds,
      filename: `${base}-${issued.number}.xml`,
      contentType: 'application/xml',
      status: 'processing',
      createdAt: now,
      updatedAt: now,
      availableUntil: retentionEnd(ctx, now),
      renderPending: true,
      sourceDocumentId: doc.id,
    });
    return issued;
  });
}

/**
 * The issued invoice or credit note of an invoice/credit_note document: numbered now if it has
 * no number yet. Refused (with the exact missing settings) when the issuer is not configured.
 */
export async function issueInvoice(ctx: Ctx, doc: DocumentRow): Promise<IssueResult> {
  const done = await existing(ctx, doc.id);
  if (done) return { issued: done.data as IssuedInvoice };
  const now = ctx.clock.now();
  if (doc.kind === 'invoice') {
    const draft = await invoiceDraft(ctx, doc.orderId!, now);
    if (!draft) return { skipped: true };
    if ('refused' in draft) return draft;
    return { issued: await commitIssue(ctx, doc, draft, null) };
  }
  // A credit note needs its invoice issued first (it may not be yet: both jobs can run at once).
  const invDoc = await invoiceDocumentOfOrder(ctx.db, doc.orderId!);
  if (!invDoc) return { skipped: true };
  const inv = await issueInvoice(ctx, { ...invDoc, content: null });
  if (!('issued' in inv)) return 'refused' in inv ? { refused: inv.refused.replace('invoice not issued', 'credit note not issued') } : inv;
  const invRow = await existing(ctx, invDoc.id);
  const draft = await creditDraft(ctx, doc, inv.issued, now);
  if (!draft || !invRow) return { skipped: true };
  return { issued: await commitIssue(ctx, doc, draft, invRow.id) };
}

/** The issued invoice or credit note an e-invoice document is the XML of. */
export async function issuedForEInvoice(ctx: Ctx, doc: DocumentRow): Promise<IssuedInvoice | null> {
  if (!doc.sourceDocumentId) return null;
  const row = await existing(ctx, doc.sourceDocumentId);
  return row ? (row.data as IssuedInvoice) : null;
}
