// Job verb: scans one uploaded attachment and decides it. Clean → available. Infected →
// rejected with its bytes wiped at once (a rejected file is never served, and not kept).
// A scanner failure (clamd down, timeout) throws: the job retries with backoff and the document
// stays "processing" (202), never served unscanned. Safe to repeat: only a "processing" row
// is decided, by a guarded UPDATE.
import { attachmentForScan, decideScanned } from '../../db/repositories/documents/documents.ts';
import type { Scanner } from './scanner.ts';
import type { Ctx } from '../context.ts';

export type ScanResult = 'available' | 'rejected' | 'skipped';

export async function scanDocument(ctx: Ctx, input: { documentId: number }, scanner: Scanner): Promise<ScanResult> {
  const doc = await attachmentForScan(ctx.db, input.documentId);
  if (!doc || doc.status !== 'processing' || !doc.content) return 'skipped';
  const verdict = await scanner.scan(doc.content);
  const now = ctx.clock.now();
  const decided = await decideScanned(
    ctx.db,
    doc.id,
    verdict.clean
      ? { status: 'available', note: `clean (${verdict.engine})`, updatedAt: now }
      : { status: 'rejected', content: null, purgedAt: now, note: `${verdict.signature} (${verdict.engine})`, updatedAt: now },
  );
  if (!decided) return 'skipped';
  return verdict.clean ? 'available' : 'rejected';
}
