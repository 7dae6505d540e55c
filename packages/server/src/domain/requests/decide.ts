// The state changes of a request, each on the row locked FOR UPDATE so that two concurrent
// decisions serialise: the second one finds the request no longer pending (REQUEST_NOT_PENDING)
// instead of, say, accepting twice and booking two orders.
import type { Tx } from '../../db/client.ts';
import { updateRequest, type NewRequest } from '../../db/repositories/requests.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { forbidden } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { hasRight } from '../principal.ts';
import { assertPending, findRequest, reload, type RequestRow, type RequestStatus, type RequestView } from './internal.ts';

/** Accept and decline are back-office decisions: user tokens with requests:write only. */
export function assertStaff(ctx: Ctx): void {
  if (!hasRight(ctx.principal, 'requests', 'write')) throw forbidden('only staff with the right requests:write decide requests');
}

/**
 * Locks the caller's request, checks it is pending, runs `work` (inside the same transaction)
 * and stores the new status. The answer is read before the commit, from the transaction that made it.
 */
export function decide(
  ctx: Ctx,
  id: number,
  to: Exclude<RequestStatus, 'pending'>,
  work: (tx: Tx, row: RequestRow) => Promise<Partial<NewRequest>>,
  guard: (row: RequestRow) => void = () => {},
): Promise<RequestView> {
  return transaction(ctx.db, async (tx) => {
    const row = await findRequest(tx, ctx, id, true);
    guard(row);
    assertPending(row);
    const changes = await work(tx, row);
    const now = ctx.clock.now();
    await updateRequest(tx, row.id, { ...changes, status: to, decidedAt: now, updatedAt: now });
    if (to === 'accepted' || to === 'declined') {
      await recordEvent({ ...ctx, db: tx }, `request.${to}`, { subject: { type: 'request', id: row.id }, accountId: row.accountId, museumIds: row.museumIds });
    }
    return reload(tx, row.id);
  });
}
