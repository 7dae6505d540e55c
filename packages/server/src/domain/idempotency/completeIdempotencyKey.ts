// Last step of an Idempotency-Key request: keep a final answer for replay, or release the key
// when the answer was transient so that a retry runs the request again (see isFinal).
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { isFinal, type Claim } from './internal.ts';

export async function completeIdempotencyKey(
  ctx: Pick<Ctx, 'db'>,
  claim: Claim,
  /** body null: an answer that cannot be stored as text (a stream); the key is released. */
  answer: { status: number; body: string | null; headers: Record<string, string> },
): Promise<'stored' | 'released'> {
  const k = idempotencyKeys;
  // Only the row this claim wrote: if the claim was taken over meanwhile, it is not ours.
  const mine = and(
    eq(k.accountId, claim.accountId),
    eq(k.key, claim.key),
    eq(k.state, 'in_flight'),
    eq(k.requestHash, claim.requestHash),
    eq(k.createdAt, claim.claimedAt),
  );
  if (answer.body === null || !isFinal(answer.status, answer.headers)) {
    await ctx.db.delete(k).where(mine);
    return 'released';
  }
  await ctx.db
    .update(k)
    .set({ state: 'completed', statusCode: answer.status, responseBody: answer.body, responseHeaders: answer.headers })
    .where(mine);
  return 'stored';
}
