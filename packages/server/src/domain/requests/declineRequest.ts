// POST /requests/:id/decline: staff turn a pending request down, with a reason the requester sees.
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { assertStaff, decide } from './decide.ts';
import type { RequestView } from './internal.ts';
import { isStorableText } from './validation.ts';

export async function declineRequest(ctx: Ctx, id: number, input: { reason?: string | null }): Promise<RequestView> {
  assertStaff(ctx);
  const reason = input.reason?.trim();
  if (!reason) throw invalid('request could not be declined', ["Reason can't be blank"]);
  if (!isStorableText(reason)) throw invalid('request could not be declined', ['Reason is invalid']);
  return decide(ctx, id, 'declined', async () => ({ declineReason: reason }));
}
