// Called inside the transactions that finalize or cancel an order: creates or re-arms the order's
// generated documents and flags them for rendering (render_pending) in the same transaction, so
// a rolled-back finalize leaves neither a document nor a job behind, and a committed one always
// gets its job: the dispatcher (src/jobs/dispatch.ts) turns flags into render jobs.
//
// - finalize: a ticket PDF when the order has Ticket or Event items, a confirmation PDF when it
//   has Tour items, and always an invoice. Rows are unique per (order, kind): finalizing again
//   (safe to repeat) finds them and flags nothing new.
// - cancellation: the ticket and confirmation PDFs are rendered again, cancelled admissions
//   stamped CANCELLED (their barcodes are void). They answer 202 until the new PDF is stored, so
//   a stale PDF showing cancelled tickets as valid is never handed out. The invoice is never
//   rendered again: an invoiced order gets a credit note for the cancelled items instead (its own
//   number from the same sequence, referring to the invoice; ADR 0019).
import type { Tx } from '../../db/client.ts';
import { insertDocument, insertOrderDocuments, invoiceDocumentOfOrder, rearmOrderPdfs } from '../../db/repositories/documents/documents.ts';
import type { Ctx } from '../context.ts';
import { retentionEnd, statusAt, type DocumentKind, type DocumentSummary } from './internal.ts';

type OrderKind = 'ticket' | 'invoice' | 'confirmation';
const FILENAME: Record<OrderKind, (id: number | string) => string> = {
  ticket: (id) => `tickets-${id}.pdf`,
  invoice: (id) => `invoice-${id}.pdf`,
  confirmation: (id) => `confirmation-${id}.pdf`,
};

/** The generated documents of a finalized order, by the types of its items. */
export function orderDocumentKinds(orderId: number | string, itemTypes: string[]): Array<{ kind: OrderKind; filename: string }> {
  const kinds: OrderKind[] = [];
  if (itemTypes.some((t) => t === 'Ticket' || t === 'Event')) kinds.push('ticket');
  if (itemTypes.some((t) => t === 'Tour')) kinds.push('confirmation');
  kinds.push('invoice');
  return kinds.map((kind) => ({ kind, filename: FILENAME[kind](orderId) }));
}

/**
 * Creates the order's documents, flagged for rendering: the dispatcher (src/jobs/dispatch.ts)
 * adds their render jobs once this transaction has committed. Returns the documents created now;
 * none when they already exist (a repeated finalize).
 */
export async function queueFinalizedOrderDocuments(
  tx: Tx,
  ctx: Ctx,
  order: { id: number; accountId: number; museumIds: number[] },
  itemTypes: string[],
): Promise<DocumentSummary[]> {
  const now = ctx.clock.now();
  const rows = await insertOrderDocuments(
    tx,
    orderDocumentKinds(order.id, itemTypes).map(({ kind, filename }) => ({
      kind,
      orderId: order.id,
      accountId: order.accountId,
      museumIds: order.museumIds,
      filename,
      contentType: 'application/pdf',
      status: 'processing',
      createdAt: now,
      updatedAt: now,
      availableUntil: retentionEnd(ctx, now),
      renderPending: true,
    })),
  );
  return rows.map((r) => ({ id: r.id, kind: r.kind as DocumentKind, status: statusAt(r, now), filename: r.filename }));
}

export async function requeueOrderDocumentsAfterCancellation(tx: Tx, ctx: Ctx, orderId: number, cancelledItemIds: number[]): Promise<void> {
  const now = ctx.clock.now();
  // A new generation: a render job still running for the old state cannot store its result.
  // The dispatcher adds the new render job after this commits (render_pending).
  await rearmOrderPdfs(tx, orderId, now);
  if (cancelledItemIds.length === 0) return;
  // An invoiced (finalized) order: a credit note for exactly these items. Its number is taken
  // by the render job, like the invoice's (issueInvoice.ts), not here on the order path.
  const invoice = await invoiceDocumentOfOrder(tx, orderId);
  if (!invoice) return;
  await insertDocument(tx, {
    kind: 'credit_note',
    orderId,
    accountId: invoice.accountId,
    museumIds: invoice.museumIds,
    filename: `credit-note-${orderId}-${Math.min(...cancelledItemIds)}.pdf`,
    contentType: 'application/pdf',
    status: 'processing',
    createdAt: now,
    updatedAt: now,
    availableUntil: retentionEnd(ctx, now),
    renderPending: true,
    itemIds: [...cancelledItemIds].sort((a, b) => a - b),
  });
}
