// POST /documents: an attachment for an order or a request, as base64 in JSON. The file is
// stored "processing" and a scan job is enqueued in the same transaction; it is served only
// once the scanner passed it. Checks happen before anything is written: exactly one owner, an
// allowed content type, valid base64, a size within the limit, bytes of the declared type, a
// sanitised filename, room on the disk and in the account's quota (storage.ts).
import { createHash } from 'node:crypto';
import { attachTargetInScope, insertDocument } from '../../db/repositories/documents/documents.ts';
import type { RecordScope } from '../../db/repositories/scope.ts';
import { transaction } from '../../db/transaction.ts';
import { enqueue, TASKS } from '../../db/repositories/jobQueue.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { retentionEnd, toMeta, type DocumentMeta } from './internal.ts';
import { withTypeExtension } from './extension.ts';
import { sanitizeFilename } from './filename.ts';
import { contentMismatch } from './sniff.ts';
import { assertDiskRoom, assertQuota, isDiskFull, storageFull } from './storage.ts';

export interface UploadDocumentInput {
  order_id?: number;
  request_id?: number;
  filename: string;
  content_type: string;
  content_base64: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict decoding: Buffer.from(…, 'base64') silently skips junk, which would store garbage. */
function decode(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  return Buffer.from(compact, 'base64');
}

/** Whose order/request may this caller attach to: resellers their own, users within scope. */
function ownerScope(p: Principal): RecordScope {
  if (p.kind !== 'account') return { kind: 'none' };
  if (p.access === 'reseller') return { kind: 'account', accountId: p.accountId };
  if (p.access !== 'user') return { kind: 'none' };
  if (p.museumIds.length === 0) return { kind: 'all' };
  return { kind: 'museums', museumIds: p.museumIds };
}

export async function uploadDocument(ctx: Ctx, input: UploadDocumentInput): Promise<DocumentMeta> {
  const hasOrder = input.order_id !== undefined && input.order_id !== null;
  const hasRequest = input.request_id !== undefined && input.request_id !== null;
  if (hasOrder === hasRequest) throw invalid('document could not be saved', ['exactly one of order_id and request_id is required']);
  const contentType = input.content_type.trim().toLowerCase();
  if (!ctx.config.uploadTypes.includes(contentType)) {
    throw invalid('document could not be saved', [`content_type must be one of ${ctx.config.uploadTypes.join(', ')}`]);
  }
  const content = decode(input.content_base64);
  if (!content) throw invalid('document could not be saved', ['content_base64 is not valid base64']);
  if (content.length === 0) throw invalid('document could not be saved', ['content_base64 is empty']);
  if (content.length > ctx.config.uploadMaxBytes) {
    throw new DomainError('PAYLOAD_TOO_LARGE', `document is larger than ${ctx.config.uploadMaxBytes} bytes`);
  }
  // The bytes must be what the client says they are (magic numbers, sniff.ts).
  const mismatch = contentMismatch(contentType, content);
  if (mismatch) throw invalid('document could not be saved', [mismatch]);
  const filename = withTypeExtension(sanitizeFilename(input.filename), contentType);

  const owner = await attachTargetInScope(ctx.db, hasOrder ? 'order' : 'request', (hasOrder ? input.order_id : input.request_id)!, ownerScope(ctx.principal));
  if (!owner) throw notFound(hasOrder ? 'order' : 'request');

  await assertDiskRoom(ctx, content.length);
  const now = ctx.clock.now();
  return transaction(ctx.db, async (tx) => {
    await assertQuota(tx, ctx, owner.accountId, content.length);
    const row = await insertDocument(tx, {
      kind: 'attachment',
      orderId: hasOrder ? owner.id : null,
      requestId: hasOrder ? null : owner.id,
      accountId: owner.accountId,
      museumIds: owner.museumIds,
      filename,
      contentType,
      byteSize: content.length,
      status: 'processing',
      content,
      sha256: createHash('sha256').update(content).digest('hex'),
      createdAt: now,
      updatedAt: now,
      availableUntil: retentionEnd(ctx, now),
    });
    await enqueue(tx, TASKS.scanDocument, { documentId: row.id }, { jobKey: `scan:${row.id}` });
    const { content: _bytes, ...meta } = row;
    return toMeta(meta, now);
  }).catch((err: unknown) => {
    // The disk filled between the floor check and the write: the same answer, not a 500.
    throw isDiskFull(err) ? storageFull() : err;
  });
}
