// First step of an Idempotency-Key request: claim the key or learn what happened to it before.
// One INSERT ... ON CONFLICT decides the race between any number of processes (all state is in
// PostgreSQL): exactly one request wins the claim; the others find the row and get 409 while it
// is in flight, the stored answer once it is done, or 422 when they send a different request.
import { claimKey, findKey } from '../../db/repositories/idempotency.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { checkKey, IN_FLIGHT_LEASE_MS, KEY_TTL_MS, owner, requestHash, type Claim } from './internal.ts';

export type ClaimOutcome =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; status: number; body: string; headers: Record<string, string> };

export async function claimIdempotencyKey(
  ctx: Ctx,
  input: { key: unknown; method: string; path: string; body: unknown },
): Promise<ClaimOutcome> {
  const p = owner(ctx.principal);
  const key = checkKey(input.key);
  const hash = requestHash(input.method, input.path, input.body);

  // A row that vanishes between the two statements (its request failed and released it) means
  // the key is free again: try once more.
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = ctx.clock.now();
    const claim = { accountId: p.accountId, key, requestHash: hash, claimedAt: now };
    // Expired rows count as absent; an abandoned claim of the same request may be taken over.
    if (await claimKey(ctx.db, claim, new Date(now.getTime() + KEY_TTL_MS), new Date(now.getTime() - IN_FLIGHT_LEASE_MS))) {
      return { kind: 'claimed', claim };
    }
    const row = await findKey(ctx.db, p.accountId, key);
    if (!row) continue;
    if (row.requestHash !== hash) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was already used for a different request');
    }
    if (row.state !== 'completed' || row.statusCode === null) {
      throw new DomainError('IDEMPOTENCY_IN_FLIGHT', 'a request with this Idempotency-Key is still in progress', { retryAfter: 1 });
    }
    return { kind: 'replay', status: row.statusCode, body: row.responseBody ?? '', headers: row.responseHeaders ?? {} };
  }
  throw new DomainError('IDEMPOTENCY_IN_FLIGHT', 'a request with this Idempotency-Key is still in progress', { retryAfter: 1 });
}
