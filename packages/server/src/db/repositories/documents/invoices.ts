// Statements of invoice issuing: the gapless number, the frozen content, and the numbered
// document. Called inside one short transaction (domain/documents/issueInvoice.ts).
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { documents, invoiceCounter, invoices } from '../../schema/index.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;

export async function invoiceOfDocument(db: DbOrTx, documentId: number): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.documentId, documentId));
  return row ?? null;
}

/** Locks the document row: two runs of the same job cannot both number it. */
export async function lockDocument(tx: DbOrTx, documentId: number): Promise<void> {
  await tx.select({ id: documents.id }).from(documents).where(eq(documents.id, documentId)).for('update');
}

/** The next invoice number; the upsert locks the counter row until commit. */
export async function nextInvoiceNumber(tx: DbOrTx): Promise<number> {
  const [c] = await tx
    .insert(invoiceCounter)
    .values({ id: 1, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceCounter.id, set: { lastNumber: sql`${invoiceCounter.lastNumber} + 1` } })
    .returning({ n: invoiceCounter.lastNumber });
  return c!.n;
}

export async function insertInvoice(tx: DbOrTx, values: NewInvoice): Promise<void> {
  await tx.insert(invoices).values(values);
}

export async function numberDocument(tx: DbOrTx, documentId: number, invoiceNumber: number, filename: string): Promise<void> {
  await tx.update(documents).set({ invoiceNumber, filename }).where(eq(documents.id, documentId));
}
