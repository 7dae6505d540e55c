// Sends an order's confirmation mail again (staff console): a finalized order with a customer
// email gets a new mail row of kind order_confirmation, with its tickets attached, queued like
// any other visitor mail. The mail hangs off an internal outbox event that is never dispatched
// (dispatch_pending = false), so webhook subscribers see nothing: the order did not change.
import { addJobs, TASKS } from '../../db/repositories/jobQueue.ts';
import { insertEvent } from '../../db/repositories/events.ts';
import { customerOfOrder, insertMail } from '../../db/repositories/ordersQuery.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newEventId } from '../events/record.ts';
import { findOrder, statusAt } from './internal.ts';

export async function resendConfirmation(ctx: Ctx, idOrToken: string): Promise<{ orderId: number; mailId: number; recipient: string }> {
  return transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    if (statusAt(order, ctx.clock.now()) !== 'finalized') throw new DomainError('VALIDATION_FAILED', 'only a finalized order has a confirmation to send');
    const c = order.customerId ? await customerOfOrder(tx, order.customerId) : null;
    if (!c?.email) throw new DomainError('VALIDATION_FAILED', 'the order has no customer email address');
    const now = ctx.clock.now();
    const eventId = newEventId();
    await insertEvent(tx, {
      id: eventId, type: 'order.confirmation_resent', accountId: order.accountId, museumIds: order.museumIds,
      subjectType: 'order', subjectId: order.id, createdAt: now, dispatchPending: false,
    });
    const mailId = await insertMail(tx, { eventId, kind: 'order_confirmation', recipient: c.email, locale: c.locale ?? ctx.config.locales[0]!, createdAt: now });
    await addJobs(tx, [{ task: TASKS.sendMail, payload: { mailId }, key: `mail:${mailId}`, maxAttempts: 12 }]);
    return { orderId: order.id, mailId, recipient: c.email };
  });
}
