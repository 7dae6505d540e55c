// The fingerprint of an order request for foreign_id duplicate detection (spec 7.4): the same
// content sent again must be recognised whatever the key order or the {"order": …} wrapping.
import { createHash } from 'node:crypto';

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(body))).digest('base64url');
}
