// Job verb: renders one generated document (ticket, invoice or confirmation PDF) of an order and
// stores it. Safe to repeat and to race with itself:
// - it renders from the order as it is now and stores only if the document's generation is
//   still the one it started from and the row is still "processing" (a cancellation meanwhile
//   bumps the generation and enqueues its own render; an already stored PDF is left alone);
// - an invoice gets its number once, in its own short transaction, before rendering: the
//   number is then part of the document row and every retry prints the same number.
import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { documents, invoiceCounter } from '../../db/schema/index.ts';
import type { ConfirmationPdfInput, InvoicePdfInput, TicketsPdfInput } from '../../documents/render/types.ts';
import type { Ctx } from '../context.ts';
import { metaColumns } from './internal.ts';
import { confirmationInput, invoiceInput, loadOrderRenderData, ticketsInput } from './renderInput.ts';

export interface Renderers {
  ticket(input: TicketsPdfInput): Promise<Buffer>;
  invoice(input: InvoicePdfInput): Promise<Buffer>;
  confirmation(input: ConfirmationPdfInput): Promise<Buffer>;
}

export type GenerateResult = 'stored' | 'skipped' | 'superseded';

/**
 * Numbers an invoice document unless it already has a number. The counter row is locked by the
 * upsert until commit, so numbers are handed out one at a time, and a transaction that rolls
 * back returns its number: the sequence has no gaps and no repeats.
 */
async function numberInvoice(ctx: Ctx, documentId: number): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const [doc] = await tx.select({ n: documents.invoiceNumber }).from(documents).where(eq(documents.id, documentId)).for('update');
    if (doc?.n != null) return doc.n;
    const [c] = await tx
      .insert(invoiceCounter)
      .values({ id: 1, lastNumber: 1 })
      .onConflictDoUpdate({ target: invoiceCounter.id, set: { lastNumber: sql`${invoiceCounter.lastNumber} + 1` } })
      .returning({ n: invoiceCounter.lastNumber });
    await tx.update(documents).set({ invoiceNumber: c!.n }).where(eq(documents.id, documentId));
    return c!.n;
  });
}

export async function generateDocument(ctx: Ctx, input: { documentId: number }, render: Renderers): Promise<GenerateResult> {
  const [doc] = await ctx.db.select(metaColumns).from(documents).where(eq(documents.id, input.documentId));
  // Gone, wiped, or already stored for the current generation: nothing to do.
  if (!doc || doc.kind === 'attachment' || doc.status !== 'processing' || doc.purgedAt || !doc.orderId) return 'skipped';
  const number = doc.kind === 'invoice' ? await numberInvoice(ctx, doc.id) : null;
  const data = await loadOrderRenderData(ctx.db, ctx, doc.orderId);
  if (!data) return 'skipped';
  const currency = data.order.currency;
  const pdf =
    doc.kind === 'ticket'
      ? await render.ticket(ticketsInput(data, currency))
      : doc.kind === 'confirmation'
        ? await render.confirmation(confirmationInput(data, currency))
        : await render.invoice(invoiceInput(data, currency, number!));
  const stored = await ctx.db
    .update(documents)
    .set({
      content: pdf,
      byteSize: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      status: 'available',
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(documents.id, doc.id), eq(documents.generation, doc.generation), eq(documents.status, 'processing'), isNull(documents.purgedAt)))
    .returning({ id: documents.id });
  return stored.length ? 'stored' : 'superseded';
}
