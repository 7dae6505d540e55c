// GET|HEAD /documents/:id/download (spec 4, 7.1): the bytes when available; 202 while it is
// being generated or scanned (retry after a short backoff); 410 once past retention, purged or
// rejected by the scanner (do not retry); 404 when unknown or not the caller's.
import { documentFileInScope, type DocumentDownloadRow } from '../../db/repositories/documents/documents.ts';
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

export async function downloadDocument(ctx: Ctx, id: number): Promise<DocumentFile> {
  const row = await documentFileInScope(ctx.db, id, visibleDocuments(ctx.principal));
  if (!row) throw notFound('document');
  return fileOf(row, ctx.clock.now());
}

/** The bytes of a document row, or why not (202 processing, 410 gone); shared by every download route. */
export function fileOf(row: DocumentDownloadRow, now: Date): DocumentFile {
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
