// Rotation with overlap: a new token for the same account; the old one keeps working for
// `overlapSeconds` (default 0 = revoked now), so a partner can swap tokens without downtime.
import { endToken, insertToken, tokenById } from '../../db/repositories/accounts.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { instanceId } from './internal.ts';
import { hashToken, last4, newToken } from './tokens.ts';
import type { CreatedToken } from './createToken.ts';

export async function rotateToken(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  input: { tokenId: number; overlapSeconds?: number; expiresIn?: number },
): Promise<CreatedToken & { oldTokenEndsAt: Date }> {
  const overlap = input.overlapSeconds ?? 0;
  if (!Number.isFinite(overlap) || overlap < 0) throw invalid('overlap must not be negative');
  const now = ctx.clock.now();
  return transaction(ctx.db, async (tx) => {
    const old = await tokenById(tx, input.tokenId, { forUpdate: true });
    if (!old) throw notFound('token');
    if ((old.revokedAt && old.revokedAt <= now) || (old.expiresAt && old.expiresAt <= now)) {
      throw new DomainError('VALIDATION_FAILED', 'token is already revoked or expired; create a new one instead');
    }
    const token = newToken(await instanceId(tx));
    const expiresAt = input.expiresIn ? new Date(now.getTime() + input.expiresIn * 1000) : null;
    const tokenId = await insertToken(tx, { accountId: old.accountId, tokenHash: hashToken(token), last4: last4(token), createdAt: now, expiresAt });
    let endsAt = new Date(now.getTime() + overlap * 1000);
    if (old.expiresAt && old.expiresAt < endsAt) endsAt = old.expiresAt;
    await endToken(tx, old.id, endsAt, tokenId);
    return { token, tokenId, accountId: old.accountId, last4: last4(token), expiresAt, oldTokenEndsAt: endsAt };
  });
}
