// Statements of the documents area: metadata, bytes, listings, scans, uploads and retention.
import { and, asc, count, eq, getTableColumns, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { documents, orderItems, orders, requests } from '../../schema/index.ts';
import { scopeWhere, type RecordScope } from '../scope.ts';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;
export type DocumentMetaRow = Omit<DocumentRow, 'content'>;

/** Every column but the bytes. */
export const metaColumns = (() => {
  const { content: _content, ...rest } = getTableColumns(documents);
  return rest;
})();

/** The columns a download needs. */
const downloadColumns = {
  status: documents.status,
  availableUntil: documents.availableUntil,
  filename: documents.filename,
  contentType: documents.contentType,
  content: documents.content,
  sha256: documents.sha256,
  kind: documents.kind,
  note: documents.note,
};
export type DocumentDownloadRow = Pick<DocumentRow, keyof typeof downloadColumns>;

export async function documentMetaById(db: DbOrTx, id: number): Promise<DocumentMetaRow | null> {
  const [row] = await db.select(metaColumns).from(documents).where(eq(documents.id, id));
  return row ?? null;
}

export async function documentMetaInScope(db: DbOrTx, id: number, scope: RecordScope): Promise<DocumentMetaRow | null> {
  const [row] = await db.select(metaColumns).from(documents).where(and(eq(documents.id, id), scopeWhere(documents, scope)));
  return row ?? null;
}

export async function documentFileInScope(db: DbOrTx, id: number, scope: RecordScope): Promise<DocumentDownloadRow | null> {
  const [row] = await db.select(downloadColumns).from(documents).where(and(eq(documents.id, id), scopeWhere(documents, scope)));
  return row ?? null;
}

/** The one document of `kind` of an order (ticket, confirmation, invoice are unique per order). */
export async function orderDocumentFile(db: DbOrTx, orderId: number, kind: string): Promise<DocumentDownloadRow | null> {
  const [row] = await db.select(downloadColumns).from(documents).where(and(eq(documents.orderId, orderId), eq(documents.kind, kind)));
  return row ?? null;
}

export async function orderToken(db: DbOrTx, orderId: number): Promise<{ id: number; token: string } | null> {
  const [row] = await db.select({ id: orders.id, token: orders.token }).from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

export async function orderHasItem(db: DbOrTx, orderId: number, itemId: number, type: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(and(eq(orderItems.id, itemId), eq(orderItems.orderId, orderId), eq(orderItems.type, type)));
  return row !== undefined;
}

/** The short list rows of the documents of orders, id ascending. */
export async function documentsOfOrderIds(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({
      id: documents.id,
      orderId: documents.orderId,
      kind: documents.kind,
      status: documents.status,
      availableUntil: documents.availableUntil,
      filename: documents.filename,
    })
    .from(documents)
    .where(inArray(documents.orderId, orderIds))
    .orderBy(asc(documents.id));
}

export interface DocumentFilter {
  scope: RecordScope;
  orderId?: number;
  requestId?: number;
  kind?: string;
  /** The status as shown at `now` ("expired" once past available_until). */
  shownStatus?: { status: string; now: Date };
}

export async function pageOfDocuments(db: DbOrTx, f: DocumentFilter, page: { limit: number; offset: number }): Promise<{ rows: DocumentMetaRow[]; total: number }> {
  const where: SQL[] = [scopeWhere(documents, f.scope)];
  if (f.orderId !== undefined) where.push(eq(documents.orderId, f.orderId));
  if (f.requestId !== undefined) where.push(eq(documents.requestId, f.requestId));
  if (f.kind) where.push(eq(documents.kind, f.kind));
  if (f.shownStatus) {
    const { status, now } = f.shownStatus;
    where.push(sql`(case when ${documents.status} in ('processing', 'available') and ${documents.availableUntil} <= ${now}
      then 'expired' else ${documents.status} end) = ${status}`);
  }
  const cond = and(...where);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(documents).where(cond);
  const rows = await db.select(metaColumns).from(documents).where(cond).orderBy(asc(documents.id)).limit(page.limit).offset(page.offset);
  return { rows, total: n };
}

/** The row still waits for this generation's render (a cancellation meanwhile bumps it). */
const stillRendering = (doc: { id: number; generation: number }) =>
  and(eq(documents.id, doc.id), eq(documents.generation, doc.generation), eq(documents.status, 'processing'), isNull(documents.purgedAt));

/** Marks a generated document rejected with its reason, if its render is still current. */
export async function refuseRendered(db: DbOrTx, doc: { id: number; generation: number }, note: string, now: Date): Promise<void> {
  await db.update(documents).set({ status: 'rejected', note, updatedAt: now }).where(stillRendering(doc));
}

/** Stores rendered bytes if the render is still current; false when it was superseded. */
export async function storeRendered(db: DbOrTx, doc: { id: number; generation: number }, content: Buffer, sha256: string, now: Date): Promise<boolean> {
  const stored = await db
    .update(documents)
    .set({ content, byteSize: content.length, sha256, status: 'available', updatedAt: now })
    .where(stillRendering(doc))
    .returning({ id: documents.id });
  return stored.length > 0;
}

/** Wipes the bytes of documents past their retention; returns how many. */
export async function purgeExpired(db: DbOrTx, now: Date): Promise<number> {
  const purged = await db
    .update(documents)
    .set({
      content: null,
      // A rejected upload stays "rejected" (its bytes are already gone).
      status: sql`case when ${documents.status} = 'rejected' then 'rejected' else 'expired' end`,
      purgedAt: now,
      updatedAt: now,
    })
    .where(and(isNull(documents.purgedAt), lte(documents.availableUntil, now)))
    .returning({ id: documents.id });
  return purged.length;
}

export async function attachmentForScan(db: DbOrTx, id: number): Promise<{ id: number; content: Buffer | null; status: string } | null> {
  const [row] = await db
    .select({ id: documents.id, content: documents.content, status: documents.status })
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.kind, 'attachment')));
  return row ?? null;
}

/** Applies a scan verdict to a document still "processing"; false when another run decided it. */
export async function decideScanned(db: DbOrTx, id: number, changes: Partial<NewDocument>): Promise<boolean> {
  const decided = await db
    .update(documents)
    .set(changes)
    .where(and(eq(documents.id, id), eq(documents.status, 'processing')))
    .returning({ id: documents.id });
  return decided.length > 0;
}

/** The order or request an upload attaches to, within the scope. */
export async function attachTargetInScope(
  db: DbOrTx,
  target: 'order' | 'request',
  id: number,
  scope: RecordScope,
): Promise<{ id: number; accountId: number; museumIds: number[] } | null> {
  const table = target === 'order' ? orders : requests;
  const [row] = await db
    .select({ id: table.id, accountId: table.accountId, museumIds: table.museumIds })
    .from(table)
    .where(and(eq(table.id, id), scopeWhere(table, scope)));
  return row ?? null;
}

export async function insertDocument(db: DbOrTx, values: NewDocument): Promise<DocumentRow> {
  const [row] = await db.insert(documents).values(values).returning();
  return row!;
}

/** Bytes of uploads an account keeps stored (bytes of rejected or purged uploads are gone). */
export async function storedUploadBytes(db: DbOrTx, accountId: number): Promise<number> {
  const r = await db.execute<{ n: string }>(
    sql`select coalesce(sum(byte_size), 0)::bigint::text n from documents
        where account_id = ${accountId} and kind = 'attachment' and content is not null`,
  );
  return Number(r.rows[0]!.n);
}

/** The account's upload lock, held to commit: uploads of one account count one after another. */
export async function lockAccountUploads(tx: DbOrTx, accountId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('atrium-upload-quota:' || ${accountId}::integer, 0))`);
}

/** Inserts an order's generated documents; those that exist already (per order and kind) are skipped. */
export async function insertOrderDocuments(db: DbOrTx, rows: NewDocument[]) {
  return db
    .insert(documents)
    .values(rows)
    .onConflictDoNothing({ target: [documents.orderId, documents.kind], where: sql`${documents.kind} in ('ticket', 'invoice', 'confirmation')` })
    .returning({ id: documents.id, kind: documents.kind, status: documents.status, filename: documents.filename, availableUntil: documents.availableUntil });
}

/** Re-arms an order's live ticket and confirmation PDFs for rendering, in a new generation. */
export async function rearmOrderPdfs(db: DbOrTx, orderId: number, now: Date): Promise<void> {
  await db
    .update(documents)
    .set({ status: 'processing', generation: sql`${documents.generation} + 1`, updatedAt: now, renderPending: true })
    .where(
      and(
        eq(documents.orderId, orderId),
        inArray(documents.kind, ['ticket', 'confirmation']),
        isNull(documents.purgedAt),
        sql`${documents.availableUntil} > ${now}`,
      ),
    );
}

/** The invoice document of an order (without its bytes), if it has one. */
export async function invoiceDocumentOfOrder(db: DbOrTx, orderId: number): Promise<DocumentMetaRow | null> {
  const [row] = await db.select(metaColumns).from(documents).where(and(eq(documents.orderId, orderId), eq(documents.kind, 'invoice')));
  return row ?? null;
}

