// Renders an order's ticket PDF as the document job does (generateDocument with the real
// renderers), so document links have bytes behind them.
import { and, eq } from 'drizzle-orm';
import { documents } from '../../src/db/schema/index.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { generateDocument } from '../../src/domain/documents/generateDocument.ts';
import { renderTicketsPdf } from '../../src/documents/render/tickets.ts';
import { renderConfirmationPdf } from '../../src/documents/render/confirmation.ts';
import type { ConsoleFixture } from './fixture.ts';

export async function runDocumentJobs(fx: ConsoleFixture, orderId: number): Promise<number> {
  const db = fx.t.database.db;
  const [doc] = await db.select({ id: documents.id }).from(documents).where(and(eq(documents.orderId, orderId), eq(documents.kind, 'ticket')));
  if (!doc) throw new Error(`order ${orderId} has no ticket document`);
  const ctx = systemCtx({ db, clock: fx.t.clock, config: fx.t.config });
  const fail = async () => { throw new Error('not rendered in console tests'); };
  await generateDocument(ctx, { documentId: doc.id }, { ticket: renderTicketsPdf, confirmation: renderConfirmationPdf, invoice: fail, eInvoice: fail } as never);
  return doc.id;
}
