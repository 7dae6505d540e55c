// Uploading a picture and attaching it to a museum, exhibition, ticket, event or tour: the
// record's go~mus `picture` becomes this one. Checks before anything is written: a known target
// inside the caller's museum scope (others are "not found", as every catalogue write), the size,
// the account's upload quota, the bytes (images.ts: type by content, full decode, pixel limit).
// Files go to the media store first (under the content's hash, so a retry writes the same
// files); the row, the quota count under the account's lock and the record's picture are one
// transaction.
import { createHash } from 'node:crypto';
import {
  accountMediaCount, insertMedia, lockAccountMedia, lockTargetMuseum, setPicture, targetMuseum, type MediaTargetType,
} from '../../db/repositories/media.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { assertStaff } from '../catalog/writeSupport.ts';
import { mediaView, pictureJson, type MediaView } from './picture.ts';
import { mediaStore } from './store.ts';

export const TARGET_TYPES = ['museum', 'exhibition', 'ticket', 'event', 'tour'] as const;

export interface UploadMediaInput {
  target_type: string;
  target_id: number;
  title?: string | null | undefined;
  description?: string | null | undefined;
  copyright_info?: string | null | undefined;
  bytes: Buffer;
}

const TEXT_MAX = 2000;

function text(name: string, v: string | null | undefined, problems: string[]): string | null {
  if (v === undefined || v === null) return null;
  const t = v.trim();
  if (t.length > TEXT_MAX) problems.push(`${name} is longer than ${TEXT_MAX} characters`);
  if (t.includes('\u0000')) problems.push(`${name} must not contain NUL characters`);
  return t === '' ? null : t;
}

function quotaExceeded(quota: number) {
  return new DomainError('STORAGE_QUOTA_EXCEEDED', `upload quota of this account exceeded: at most ${quota} pictures`);
}

export async function uploadMedia(ctx: Ctx, input: UploadMediaInput): Promise<MediaView> {
  assertStaff(ctx);
  const p = ctx.principal;
  if (p.kind !== 'account') throw notFound('record');
  const problems: string[] = [];
  if (!(TARGET_TYPES as readonly string[]).includes(input.target_type)) problems.push(`target_type must be one of ${TARGET_TYPES.join(', ')}`);
  if (!Number.isInteger(input.target_id) || input.target_id < 1 || input.target_id > 2_147_483_647) problems.push('target_id must be a record id');
  const title = text('title', input.title, problems);
  const description = text('description', input.description, problems);
  const copyright = text('copyright_info', input.copyright_info, problems);
  if (input.bytes.length === 0) problems.push('file is empty');
  if (problems.length > 0) throw invalid('picture could not be saved', problems);
  if (input.bytes.length > ctx.config.mediaMaxBytes) {
    throw new DomainError('PAYLOAD_TOO_LARGE', `picture is larger than ${ctx.config.mediaMaxBytes} bytes`, { reason: 'picture.too_large' });
  }
  const type = input.target_type as MediaTargetType;
  const museum = await targetMuseum(ctx.db, type, input.target_id);
  if (museum === undefined || !inMuseumScope(p, museum)) throw notFound(type);
  const quota = ctx.config.mediaQuota;
  // A cheap early refusal; the count that decides is taken again under the lock below.
  if (quota > 0 && (await accountMediaCount(ctx.db, p.accountId)) >= quota) throw quotaExceeded(quota);

  return attachPicture(ctx, { accountId: p.accountId, type, targetId: input.target_id, title, description, copyright, bytes: input.bytes });
}

/**
 * Processes, stores and attaches one picture. `accountId` null: made by the system (the demo),
 * counted against no quota and bound by no museum scope.
 */
export async function attachPicture(
  ctx: Ctx,
  a: { accountId: number | null; type: MediaTargetType; targetId: number; title: string | null; description: string | null; copyright: string | null; bytes: Buffer },
): Promise<MediaView> {
  const quota = a.accountId === null ? 0 : ctx.config.mediaQuota;
  // The image library is loaded with the first upload, not with every server process.
  const { processPicture } = await import('./images.ts');
  const picture = await processPicture(a.bytes, ctx.config.mediaMaxPixels);
  const sha256 = createHash('sha256').update(a.bytes).digest('hex');
  const key = sha256.slice(0, 32);
  await mediaStore(ctx.config.mediaDir).put(key, picture.files);

  const now = ctx.clock.now();
  const row = await transaction(ctx.db, async (tx) => {
    if (quota > 0 && a.accountId !== null) {
      await lockAccountMedia(tx, a.accountId);
      if ((await accountMediaCount(tx, a.accountId)) >= quota) throw quotaExceeded(quota);
    }
    const locked = await lockTargetMuseum(tx, a.type, a.targetId);
    if (locked === undefined || (a.accountId !== null && !inMuseumScope(ctx.principal, locked))) throw notFound(a.type);
    const m = await insertMedia(tx, {
      accountId: a.accountId, museumId: locked, targetType: a.type, targetId: a.targetId,
      title: a.title, description: a.description, copyrightInfo: a.copyright,
      contentType: picture.contentType, width: picture.width, height: picture.height,
      byteSize: a.bytes.length, sha256, storageKey: key, createdAt: now,
    });
    await setPicture(tx, a.type, a.targetId, pictureJson(m), now);
    return m;
  });
  return mediaView(row);
}
