// GET|HEAD /documents/:id/download (spec 4, 7.1): the bytes when available; 202 while it is
// being generated or scanned (retry after a short backoff); 410 once past retention, purged or
// rejected by the scanner (do not retry); 404 when unknown or not the caller's.
import { and, eq } from 'drizzle-orm';
import { documents } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { statusAt, visibleDocuments } from './internal.ts';

export interface DocumentFile {
  filename: string;
  contentType: string;
  content: Buffer;
  sha256: string | null;
}

/** Seconds a client should wait before asking again while a document is processed. */
export const PROCESSING_RETRY_AFTER = 2;

/** The columns a download needs. */
export const downloadColumns = {
  status: documents.status,
  availableUntil: documents.availableUntil,
  filename: documents.filename,
  contentType: documents.contentType,
  content: documents.content,
  sha256: documents.sha256,
  kind: documents.kind,
  note: documents.note,
};
type DocumentRowForDownload = { [K in keyof typeof downloadColumns]: (typeof downloadColumns)[K]['_']['data'] | ((typeof downloadColumns)[K]['_']['notNull'] extends true ? never : null) };

export async function downloadDocument(ctx: Ctx, id: number): Promise<DocumentFile> {
  const [row] = await ctx.db
    .select(downloadColumns)
    .from(documents)
    .where(and(eq(documents.id, id), visibleDocuments(ctx.principal)));
  if (!row) throw notFound('document');
  return fileOf(row, ctx.clock.now());
}

/** The bytes of a document row, or why not (202 processing, 410 gone); shared by every download route. */
export function fileOf(row: DocumentRowForDownload, now: Date): DocumentFile {
  const status = statusAt(row, now);
  if (status === 'processing') {
    throw new DomainError('DOCUMENT_PROCESSING', 'document is being processed', { retryAfter: PROCESSING_RETRY_AFTER });
  }
  if (status !== 'available' || !row.content) {
    // A generated document is rejected only when it cannot be issued (an invoice without issuer
    // settings): its note says exactly what to set.
    const rejected = row.kind === 'attachment' ? 'document was rejected by the virus scan' : (row.note ?? 'document could not be generated');
    throw new DomainError('GONE', status === 'rejected' ? rejected : 'document is no longer available');
  }
  return { filename: row.filename, contentType: row.contentType, content: row.content, sha256: row.sha256 };
}
