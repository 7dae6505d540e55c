// The go~mus `picture` object of a stored picture, and the public view of an upload.
import type { MediaRow } from '../../db/repositories/media.ts';
import type { PictureJson } from '../../db/schema/index.ts';
import { VARIANTS, type VariantName } from './variants.ts';

/** Path of one variant; `/media/<key>/<variant>.<jpg|webp>` never changes its bytes. */
export function variantPath(key: string, variant: VariantName, format: 'jpg' | 'webp' = 'jpg'): string {
  return `/media/${key}/${variant}.${format}`;
}

/** go~mus's picture: title, description, copyright_info and one JPEG URL per size. */
export function pictureJson(m: Pick<MediaRow, 'title' | 'description' | 'copyrightInfo' | 'storageKey'>): PictureJson {
  const out: PictureJson = { title: m.title, description: m.description, copyright_info: m.copyrightInfo };
  for (const v of Object.keys(VARIANTS) as VariantName[]) out[v] = variantPath(m.storageKey, v);
  return out;
}

export interface MediaView {
  id: number;
  target_type: string;
  target_id: number;
  museum_id: number;
  title: string | null;
  description: string | null;
  copyright_info: string | null;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
  created_at: string;
  picture: { title: string | null; description: string | null; copyright_info: string | null } & Record<VariantName, string>;
  /** The same sizes as WebP. */
  webp: Record<VariantName, string>;
}

export function mediaView(m: MediaRow): MediaView {
  const webp = Object.fromEntries((Object.keys(VARIANTS) as VariantName[]).map((v) => [v, variantPath(m.storageKey, v, 'webp')])) as Record<VariantName, string>;
  return {
    id: m.id, target_type: m.targetType, target_id: m.targetId, museum_id: m.museumId,
    title: m.title, description: m.description, copyright_info: m.copyrightInfo,
    content_type: m.contentType, width: m.width, height: m.height, byte_size: m.byteSize,
    created_at: m.createdAt.toISOString(), picture: pictureJson(m) as MediaView['picture'], webp,
  };
}
