// What the bytes of an upload are, from their leading "magic numbers", so a declared content
// type can be checked against them: a file that says image/png but is a PDF or an executable
// would be served to staff under a type their browser trusts.
// Signatures from the formats' specifications (PDF 1.7 §7.5.2, PNG §5.2, JFIF, GIF89a, RIFF/WebP,
// TIFF 6.0, ZIP APPNOTE 4.3.7); text types are recognised as valid UTF-8 without NUL bytes.

const SIGNATURES: Array<{ type: string; test: (b: Buffer) => boolean }> = [
  // A PDF header may follow up to 1 KiB of junk (PDF 1.7 Annex H.3); readers accept that.
  { type: 'application/pdf', test: (b) => b.subarray(0, 1024).includes('%PDF-') },
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/tiff', test: (b) => ['II*\u0000', 'MM\u0000*'].includes(b.subarray(0, 4).toString('latin1')) },
  { type: 'application/zip', test: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) },
  // Executables and scripts are named so the answer says what was sent.
  { type: 'application/x-msdownload', test: (b) => b.subarray(0, 2).toString('latin1') === 'MZ' },
  { type: 'application/x-executable', test: (b) => b.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) },
  { type: 'text/html', test: (b) => /^\s*(<!doctype html|<html|<script|<svg)/i.test(b.subarray(0, 256).toString('latin1')) },
];

/** Container formats whose content types share one signature. */
const ZIP_BASED = new Set([
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
]);
const TEXT = new Set(['text/plain', 'text/csv']);

/** The type the bytes show, or null when they match no known signature. */
export function sniffType(bytes: Buffer): string | null {
  return SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}

function isPlainText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Null when the bytes fit the declared type, else a message for the client. A declared type
 * this module has no signature for passes unless the bytes clearly are something else.
 */
export function contentMismatch(declared: string, bytes: Buffer): string | null {
  const seen = sniffType(bytes);
  if (TEXT.has(declared)) {
    return seen === null && isPlainText(bytes) ? null : `content is not ${declared} (${seen ? `the bytes are ${seen}` : 'not UTF-8 text'})`;
  }
  if (ZIP_BASED.has(declared)) return seen === 'application/zip' ? null : `content is not ${declared} (${seen ? `the bytes are ${seen}` : 'no ZIP signature'})`;
  const known = SIGNATURES.some((s) => s.type === declared);
  if (known) return seen === declared ? null : `content is not ${declared} (${seen ? `the bytes are ${seen}` : 'its signature is missing'})`;
  return seen === null ? null : `content is not ${declared} (the bytes are ${seen})`;
}
