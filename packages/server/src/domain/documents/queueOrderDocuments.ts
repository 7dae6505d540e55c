// Called inside the transactions that finalize or cancel an order: creates or re-arms the order's
// generated documents and enqueues their render jobs in the same transaction, so a rolled-back
// finalize leaves neither a document row nor a job behind.
//
// - finalize: a ticket PDF when the order has Ticket or Event items, a confirmation PDF when it
//   has Tour items, and always an invoice. Rows are unique per (order, kind): finalizing again
//   (safe to repeat) finds them and enqueues nothing new.
// - cancellation: the ticket and confirmation PDFs are rendered again, cancelled admissions
//   stamped VOID (their barcodes are void). They answer 202 until the new PDF is stored, so a
//   stale PDF showing cancelled tickets as valid is never handed out. The invoice is NOT
//   re-issued: an issued invoice keeps its number and content (a credit note would be the
//   accounting answer; it is not produced yet).
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { documents, orderItems, orders } from '../../db/schema/index.ts';
import { enqueue, TASKS } from '../../jobs/queue.ts';
import type { Ctx } from '../context.ts';
import { retentionEnd, type DocumentKind } from './internal.ts';

const FILENAME: Record<Exclude<DocumentKind, 'attachment'>, (id: number) => string> = {
  ticket: (id) => `tickets-${id}.pdf`,
  invoice: (id) => `invoice-${id}.pdf`,
  confirmation: (id) => `confirmation-${id}.pdf`,
};

async function enqueueRender(tx: Tx, ids: number[]) {
  // The key folds repeated requests for one document into one waiting job.
  for (const id of ids) await enqueue(tx, TASKS.renderDocument, { documentId: id }, { jobKey: `document:${id}` });
}

export async function queueFinalizedOrderDocuments(tx: Tx, ctx: Ctx, orderId: number): Promise<void> {
  const now = ctx.clock.now();
  const [order] = await tx.select({ accountId: orders.accountId, museumIds: orders.museumIds }).from(orders).where(eq(orders.id, orderId));
  if (!order) return;
  const types = await tx.selectDistinct({ type: orderItems.type }).from(orderItems).where(eq(orderItems.orderId, orderId));
  const kinds: Array<Exclude<DocumentKind, 'attachment'>> = [];
  if (types.some((t) => t.type === 'Ticket' || t.type === 'Event')) kinds.push('ticket');
  if (types.some((t) => t.type === 'Tour')) kinds.push('confirmation');
  kinds.push('invoice');
  const inserted = await tx
    .insert(documents)
    .values(
      kinds.map((kind) => ({
        kind,
        orderId,
        accountId: order.accountId,
        museumIds: order.museumIds,
        filename: FILENAME[kind](orderId),
        contentType: 'application/pdf',
        status: 'processing',
        createdAt: now,
        updatedAt: now,
        availableUntil: retentionEnd(ctx, now),
      })),
    )
    .onConflictDoNothing({ target: [documents.orderId, documents.kind], where: sql`${documents.kind} <> 'attachment'` })
    .returning({ id: documents.id });
  await enqueueRender(tx, inserted.map((r) => r.id));
}

export async function requeueOrderDocumentsAfterCancellation(tx: Tx, ctx: Ctx, orderId: number): Promise<void> {
  const now = ctx.clock.now();
  // A new generation: a render job still running for the old state cannot store its result.
  const bumped = await tx
    .update(documents)
    .set({ status: 'processing', generation: sql`${documents.generation} + 1`, updatedAt: now })
    .where(
      and(
        eq(documents.orderId, orderId),
        inArray(documents.kind, ['ticket', 'confirmation']),
        isNull(documents.purgedAt),
        sql`${documents.availableUntil} > ${now}`,
      ),
    )
    .returning({ id: documents.id });
  await enqueueRender(tx, bumped.map((r) => r.id));
}
