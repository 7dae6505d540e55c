// Resolves a bearer token to a principal on every request (spec 5.6): unknown, expired, revoked
// or foreign-instance tokens are 401 with a message saying which; nothing here logs the token.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { tokenByHash } from '../../db/repositories/accounts.ts';
import { DomainError } from '../errors.ts';
import type { AccountPrincipal, AccessClass } from '../principal.ts';
import { hashToken, last4, TOKEN_RE } from './tokens.ts';

export async function resolveToken(
  db: Db,
  instanceId: string,
  token: string,
  now: Date,
): Promise<AccountPrincipal> {
  const m = TOKEN_RE.exec(token);
  if (!m) throw new DomainError('UNAUTHORIZED', 'authentication error; the token is invalid');
  if (m[1] !== instanceId) {
    throw new DomainError('UNAUTHORIZED', 'authentication error; the token belongs to another instance');
  }
  const hash = hashToken(token);
  const row = await tokenByHash(db, hash);
  // The lookup is by hash; the constant-time compare makes the equality check itself timing-safe.
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) {
    throw new DomainError('UNAUTHORIZED', 'authentication error; no customer or no user present');
  }
  if (row.revokedAt && row.revokedAt <= now) {
    throw new DomainError('UNAUTHORIZED', 'authentication error; the token was revoked');
  }
  if (row.expiresAt && row.expiresAt <= now) {
    throw new DomainError('UNAUTHORIZED', 'authentication error; the token has expired');
  }
  if (row.disabledAt) throw new DomainError('UNAUTHORIZED', 'authentication error; the account is disabled');
  return {
    kind: 'account',
    accountId: row.accountId,
    accountName: row.name,
    access: row.class as AccessClass,
    museumIds: row.museumIds,
    rights: new Set(row.rights),
    tokenId: row.tokenId,
    tokenLast4: last4(token),
    rateLimitPerMinute: row.rateLimit,
  };
}
