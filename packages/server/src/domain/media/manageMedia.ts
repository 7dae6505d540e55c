// Reading and removing an uploaded picture (staff), and reading a variant's bytes for /media.
import { deleteMedia as deleteRow, latestMediaOf, lockTargetMuseum, mediaById, setPicture, type MediaTargetType } from '../../db/repositories/media.ts';
import { transaction } from '../../db/transaction.ts';
import type { Config } from '../../config.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { assertStaff } from '../catalog/writeSupport.ts';
import { mediaView, pictureJson, type MediaView } from './picture.ts';
import { mediaStore } from './store.ts';

export async function getMedia(ctx: Ctx, id: number): Promise<MediaView> {
  assertStaff(ctx);
  const m = await mediaById(ctx.db, id);
  if (!m || !inMuseumScope(ctx.principal, m.museumId)) throw notFound('media');
  return mediaView(m);
}

/**
 * Deletes an upload. Its record then shows its newest remaining picture, or none (null). The
 * files stay: another upload of the same bytes shares them, and cached copies may still ask.
 */
export async function deleteMedia(ctx: Ctx, id: number): Promise<void> {
  assertStaff(ctx);
  await transaction(ctx.db, async (tx) => {
    const m = await mediaById(tx, id);
    if (!m || !inMuseumScope(ctx.principal, m.museumId)) throw notFound('media');
    const type = m.targetType as MediaTargetType;
    await lockTargetMuseum(tx, type, m.targetId);
    await deleteRow(tx, id);
    const next = await latestMediaOf(tx, type, m.targetId);
    await setPicture(tx, type, m.targetId, next ? pictureJson(next) : null, ctx.clock.now());
  });
}

/** The bytes of one variant file (`teaser.jpg`, `detail.webp`, …), or null. Public: pictures are catalogue data. */
export function readVariant(config: Pick<Config, 'mediaDir'>, key: string, name: string): Promise<Buffer | null> {
  return mediaStore(config.mediaDir).read(key, name);
}
