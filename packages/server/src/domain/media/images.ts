// Checking an uploaded picture and making its variants with sharp. The type is taken from the
// bytes (magic numbers), never from a file name or a declared type, and the whole picture is
// decoded before anything is stored: a truncated or corrupt file fails here, and a picture whose
// header promises more than ATRIUM_MEDIA_MAX_PIXELS is refused before its pixels are decoded.
// Variants are re-encoded from the decoded pixels, so no metadata of the upload (EXIF, GPS, XMP,
// comments) survives; the EXIF orientation is applied first, so the picture still stands upright.
import sharp, { type OutputInfo } from 'sharp';
import { DomainError } from '../errors.ts';
import { sniffType } from '../documents/sniff.ts';

import { PICTURE_TYPES, VARIANTS, type VariantName } from './variants.ts';

export { FORMATS, PICTURE_TYPES, VARIANTS, type VariantName } from './variants.ts';

export interface ProcessedPicture {
  contentType: string;
  width: number;
  height: number;
  /** `<variant>.<jpg|webp>` → bytes. */
  files: Map<string, Buffer>;
}

const refused = (why: string, reason: string) => new DomainError('VALIDATION_FAILED', 'picture could not be saved', { errors: [why], reason });

/** The picture type the bytes show, or a refusal naming what they are. */
export function pictureType(bytes: Buffer): string {
  const seen = sniffType(bytes);
  if (seen && (PICTURE_TYPES as readonly string[]).includes(seen)) return seen;
  throw refused(`the file is not a JPEG, PNG or WebP picture (${seen ? `its bytes are ${seen}` : 'no picture signature'})`, 'picture.type');
}

/** Decodes the whole picture once and encodes every variant in both formats. */
export async function processPicture(bytes: Buffer, maxPixels: number): Promise<ProcessedPicture> {
  const contentType = pictureType(bytes);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated', sequentialRead: true })
      .rotate()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    const message = (err as Error).message ?? '';
    if (/pixel limit/i.test(message)) throw refused(`the picture has more than ${maxPixels} pixels`, 'picture.pixels');
    throw refused(`the picture could not be decoded (${contentType}: the file is truncated or corrupt)`, 'picture.corrupt');
  }
  const { data, info } = decoded;
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const files = new Map<string, Buffer>();
  await Promise.all(
    (Object.entries(VARIANTS) as Array<[VariantName, number | null]>).map(async ([name, edge]) => {
      const sized = () => {
        const s = sharp(data, raw);
        return edge === null ? s : s.resize(edge, edge, { fit: 'inside', withoutEnlargement: true });
      };
      const [jpg, webp] = await Promise.all([
        sized().flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true }).toBuffer(),
        sized().webp({ quality: 80, effort: 2 }).toBuffer(),
      ]);
      files.set(`${name}.jpg`, jpg);
      files.set(`${name}.webp`, webp);
    }),
  );
  return { contentType, width: info.width, height: info.height, files };
}
