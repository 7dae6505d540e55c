// Upload filenames come from clients and end up in Content-Disposition headers and on disks of
// whoever downloads them: only the last path segment is kept, control characters, quotes and
// path or header metacharacters become "_", bidi controls are dropped, leading dots are dropped
// (no hidden files, no ".."), and the length is capped while keeping the extension.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f"\\/:*?<>|;]/g;
// Bidirectional controls (LRM, RLM, ALM, LRE…RLO, LRI…PDI) are removed outright: with them
// "invoice\u202Efdp.exe" displays as "invoiceexe.pdf" (the right-to-left override trick).
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MAX = 150;

export function sanitizeFilename(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  let name = last.normalize('NFC').replace(BIDI, '').replace(UNSAFE, '_').replace(/\s+/g, ' ').trim().replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name.length > MAX) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, MAX - ext.length) + ext;
  }
  return name || 'upload';
}

/** `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
