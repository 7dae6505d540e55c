// Token format: `atr_<instanceId>_<43 chars base64url>` (256 random bits). The instance prefix
// lets us tell a token of another Atrium instance apart from a mistyped one (spec 5.2).
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_RE = /^atr_([a-z0-9]{1,16})_([A-Za-z0-9_-]{43})$/;

export function newToken(instanceId: string): string {
  return `atr_${instanceId}_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The only part of a token that may appear in logs, errors and listings. */
export function last4(token: string): string {
  return token.slice(-4);
}

/** A random URL-safe secret of 128 bits (reservation and order tokens). */
export function newSecret(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}
