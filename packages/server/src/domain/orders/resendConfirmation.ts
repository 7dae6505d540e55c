// Sends an order's confirmation mail again (staff console): a finalized order with a customer
// email gets a new mail row of kind order_confirmation, with its tickets attached, queued like
// any other visitor mail. The mail hangs off an internal outbox event that is never dispatched
// (dispatch_pending = false), so webhook subscribers see nothing: the order did not change.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customers, outboxEvents } from '../../db/schema/index.ts';
import { addJobs, TASKS } from '../../db/repositories/jobQueue.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newEventId } from '../events/record.ts';
import { findOrder, statusAt } from './internal.ts';

export async function resendConfirmation(ctx: Ctx, idOrToken: string): Promise<{ orderId: number; mailId: number; recipient: string }> {
  return ctx.db.transaction(async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    if (statusAt(order, ctx.clock.now()) !== 'finalized') throw new DomainError('VALIDATION_FAILED', 'only a finalized order has a confirmation to send');
    const [c] = order.customerId ? await tx.select({ email: customers.email, locale: customers.locale }).from(customers).where(eq(customers.id, order.customerId)) : [];
    if (!c?.email) throw new DomainError('VALIDATION_FAILED', 'the order has no customer email address');
    const now = ctx.clock.now();
    const eventId = newEventId();
    await tx.insert(outboxEvents).values({
      id: eventId, type: 'order.confirmation_resent', accountId: order.accountId, museumIds: order.museumIds,
      subjectType: 'order', subjectId: order.id, createdAt: now, dispatchPending: false,
    });
    const ids = await tx.execute<{ id: number }>(sql`
      insert into mail_messages (event_id, kind, recipient, locale, created_at)
      values (${eventId}, 'order_confirmation', ${c.email}, ${c.locale ?? ctx.config.locales[0]!}, ${now}) returning id`);
    const mailId = ids.rows[0]!.id;
    await addJobs(tx as unknown as Db, [{ task: TASKS.sendMail, payload: { mailId }, key: `mail:${mailId}`, maxAttempts: 12 }]);
    return { orderId: order.id, mailId, recipient: c.email };
  });
}
