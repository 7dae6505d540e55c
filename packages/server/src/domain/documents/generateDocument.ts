// Job verb: renders one generated document of an order and stores it. Safe to repeat and to
// race with itself:
// - tickets and confirmations render from the order as it is now and are stored only if the
//   document's generation is still the one the run started from and the row is still
//   "processing" (a cancellation meanwhile bumps the generation and enqueues its own render);
// - invoices and credit notes are issued once (issueInvoice.ts: number, frozen content and the
//   e-invoice document in one transaction) and always rendered from that frozen content, so a
//   retry prints the same number and the same lines, and an issued invoice never changes;
// - an invoice the instance cannot issue (issuer settings missing) is stored as "rejected"
//   with the exact settings to set as its reason: nothing is numbered, no gap appears.
import { createHash } from 'node:crypto';
import { documentMetaById, refuseRendered, storeRendered } from '../../db/repositories/documents/documents.ts';
import type { IssuedInvoice } from './invoiceTypes.ts';
import type { ConfirmationPdfInput, TicketsPdfInput } from './renderTypes.ts';
import type { Ctx } from '../context.ts';
import type { DocumentRow } from './internal.ts';
import { issueInvoice, issuedForEInvoice } from './issueInvoice.ts';
import { confirmationInput, loadOrderRenderData, ticketsInput } from './renderInput.ts';

export interface Renderers {
  ticket(input: TicketsPdfInput): Promise<Buffer>;
  /** Invoices and credit notes (PDF). */
  invoice(input: IssuedInvoice): Promise<Buffer>;
  /** EN 16931 XML of an invoice or credit note. */
  eInvoice(input: IssuedInvoice): Promise<Buffer>;
  confirmation(input: ConfirmationPdfInput): Promise<Buffer>;
}

export type GenerateResult = 'stored' | 'skipped' | 'superseded' | 'refused';

async function render(ctx: Ctx, doc: DocumentRow, r: Renderers): Promise<Buffer | { refused: string } | null> {
  switch (doc.kind) {
    case 'invoice':
    case 'credit_note': {
      const res = await issueInvoice(ctx, doc);
      if ('refused' in res) return res;
      return 'issued' in res ? r.invoice(res.issued) : null;
    }
    case 'e_invoice': {
      const issued = await issuedForEInvoice(ctx, doc);
      return issued ? r.eInvoice(issued) : null;
    }
    case 'ticket':
    case 'confirmation': {
      const data = await loadOrderRenderData(ctx.db, ctx, doc.orderId!);
      if (!data) return null;
      const currency = data.order.currency;
      return doc.kind === 'ticket' ? r.ticket(ticketsInput(data, currency)) : r.confirmation(confirmationInput(data, currency));
    }
    default:
      return null;
  }
}

export async function generateDocument(ctx: Ctx, input: { documentId: number }, renderers: Renderers): Promise<GenerateResult> {
  const doc = await documentMetaById(ctx.db, input.documentId);
  // Gone, wiped, or already stored for the current generation: nothing to do.
  if (!doc || doc.kind === 'attachment' || doc.status !== 'processing' || doc.purgedAt || !doc.orderId) return 'skipped';
  const out = await render(ctx, { ...doc, content: null } as DocumentRow, renderers);
  if (!out) return 'skipped';
  // Stored only if the row still waits for the generation this run started from.
  if (!Buffer.isBuffer(out)) {
    await refuseRendered(ctx.db, doc, out.refused, ctx.clock.now());
    return 'refused';
  }
  const stored = await storeRendered(ctx.db, doc, out, createHash('sha256').update(out).digest('hex'), ctx.clock.now());
  return stored ? 'stored' : 'superseded';
}
