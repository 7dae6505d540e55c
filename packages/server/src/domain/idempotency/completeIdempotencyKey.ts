// Last step of an Idempotency-Key request: keep a final answer for replay, or release the key
// when the answer was transient so that a retry runs the request again (see isFinal).
import { completeKey, releaseKey } from '../../db/repositories/idempotency.ts';
import type { Ctx } from '../context.ts';
import { isFinal, type Claim } from './internal.ts';

export async function completeIdempotencyKey(
  ctx: Pick<Ctx, 'db'>,
  claim: Claim,
  /** body null: an answer that cannot be stored as text (a stream); the key is released. */
  answer: { status: number; body: string | null; headers: Record<string, string> },
): Promise<'stored' | 'released'> {
  // Only the row this claim wrote: if the claim was taken over meanwhile, it is not ours.
  if (answer.body === null || !isFinal(answer.status, answer.headers)) {
    await releaseKey(ctx.db, claim);
    return 'released';
  }
  await completeKey(ctx.db, claim, { status: answer.status, body: answer.body, headers: answer.headers });
  return 'stored';
}
