// Upload limits (docs/operations.md, "Upload limits"): one account must not be able to fill the
// disk until PostgreSQL stops. Two checks before an upload is written:
// - a per-account quota on stored upload bytes (ATRIUM_UPLOAD_QUOTA_BYTES), counted under a
//   per-account lock in the inserting transaction, so parallel uploads cannot overshoot it;
// - a free-space floor of the data directory's volume (ATRIUM_UPLOAD_MIN_FREE_BYTES), read with
//   statfs on every upload: nothing is cached, so uploads work again as soon as space is freed,
//   without a restart.
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { DbOrTx } from '../../db/client.ts';
import { isDbError } from '../../db/errors.ts';
import { lockAccountUploads, storedUploadBytes } from '../../db/repositories/documents/documents.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';

/** Seconds a client waits before retrying an upload refused for lack of disk space. */
const FULL_RETRY_AFTER = 300;

/**
 * Bytes available to unprivileged writers on the volume holding `dir` (or its nearest existing
 * ancestor: with an external DATABASE_URL the data directory may not exist). Null if unknown.
 */
export async function freeBytes(dir: string): Promise<number | null> {
  let at = path.resolve(dir);
  for (let i = 0; i < 64; i++) {
    try {
      const s = await statfs(at);
      return Number(s.bavail) * Number(s.bsize);
    } catch (err) {
      const parent = path.dirname(at);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) return null;
      at = parent;
    }
  }
  return null;
}

export const storageFull = () =>
  new DomainError('STORAGE_FULL', 'the server is low on storage; uploads are refused until space is freed', {
    retryAfter: FULL_RETRY_AFTER,
  });

/** Refuses an upload of `incoming` bytes that would leave less than the floor free. */
export async function assertDiskRoom(ctx: Ctx, incoming: number): Promise<void> {
  const floor = ctx.config.uploadMinFreeBytes;
  if (floor === 0) return;
  const free = await freeBytes(ctx.config.dataDir);
  if (free !== null && free - incoming < floor) throw storageFull();
}

/**
 * Inside the inserting transaction: takes the account's upload lock (held to commit, so the
 * next upload of the same account counts this one) and refuses what exceeds the quota.
 */
export async function assertQuota(tx: DbOrTx, ctx: Ctx, accountId: number, incoming: number): Promise<void> {
  const quota = ctx.config.uploadQuotaBytes;
  if (quota === 0) return;
  await lockAccountUploads(tx, accountId);
  const used = await storedUploadBytes(tx, accountId);
  if (used + incoming > quota) {
    throw new DomainError('STORAGE_QUOTA_EXCEEDED', `upload quota of this account exceeded: ${used} bytes stored of ${quota}`);
  }
}

/** PostgreSQL's disk_full. */
export function isDiskFull(err: unknown): boolean {
  return isDbError(err, 'DISK_FULL');
}
