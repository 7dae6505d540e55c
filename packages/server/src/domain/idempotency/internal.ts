// Shared pieces of the Idempotency-Key mechanism (docs/api-contract.md §7): key syntax, request fingerprint,
// which answers are worth keeping.
import { createHash } from 'node:crypto';
import type { ClaimedKey } from '../../db/repositories/idempotency.ts';
import type { AccountPrincipal, Principal } from '../principal.ts';
import { DomainError } from '../errors.ts';

/** Stored answers are replayed for this long (docs/api-contract.md §7: 24 hours). */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An in-flight claim older than this is taken to be abandoned (the process died between claim
 * and answer) and may be taken over by a retry with the same request. It is well above the
 * server's 60-second request timeout, so a live request is never overtaken.
 */
export const IN_FLIGHT_LEASE_MS = 2 * 60 * 1000;

const KEY = /^[\x21-\x7e]{1,255}$/;

export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw new DomainError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
      errors: ['Idempotency-Key is invalid'],
    });
  }
  return key;
}

export function owner(p: Principal): AccountPrincipal {
  if (p.kind !== 'account') throw new DomainError('UNAUTHORIZED', 'authentication error; no customer or no user present');
  return p;
}

/** JSON with sorted object keys, so {"a":1,"b":2} and {"b":2,"a":1} are the same request. */
function canonical(v: unknown): string {
  if (v === undefined) return '';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonical(x))).join(',')}]`;
  const entries = Object.entries(v as Record<string, unknown>)
    .filter(([, x]) => x !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonical(body)}`).digest('hex');
}

/**
 * Success and client errors are final and replayed. Server errors, 409 (in flight elsewhere), 429
 * (rate limited) and any answer carrying Retry-After (a transient 422 such as CAPACITY_BUSY, which
 * docs/errors.md says to retry once) are not: the key is released so that the retry really runs again.
 */
export function isFinal(status: number, headers: Record<string, string>): boolean {
  if (status === 409 || status === 429 || headers['retry-after'] !== undefined) return false;
  return status >= 200 && status < 500;
}

/** A won claim; completing it only touches the row this claim wrote. */
export type Claim = ClaimedKey;
