// The erasure's part in what leaves the service (docs/webhooks.md; migration 0017): events store
// the rendered order or request they report (comment, attendees, contact), and mails store their
// recipient. After the person's records are anonymised, their events' stored subject is rendered
// again from the erased records (a retry then sends the erased form), and mails to the person's
// address get the erased address; a pending one is marked failed so it is never sent.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { mailMessages, outboxEvents } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';
import { renderData } from '../events/render.ts';
import type { Ctx } from '../context.ts';

export async function eraseFromOutbox(
  tx: Tx,
  ctx: Ctx,
  ids: { orders: number[]; requests: number[]; documents: number[] },
  email: string,
  erasedEmail: string,
): Promise<{ events: number; mails: number }> {
  const subject = (type: string, list: number[]) => (list.length ? and(eq(outboxEvents.subjectType, type), inArray(outboxEvents.subjectId, list)) : undefined);
  const which = or(subject('order', ids.orders), subject('request', ids.requests), subject('document', ids.documents));
  let events = 0;
  if (which) {
    // Snapshots (migration 0022) are taken again from the anonymised records: the erasure wins
    // over showing the order exactly as it was.
    await tx
      .update(outboxEvents)
      .set({ snapshot: sql`order_snapshot(${outboxEvents.subjectId})` })
      .where(and(which, eq(outboxEvents.subjectType, 'order'), sql`${outboxEvents.snapshot} is not null`));
    const rows = await tx.select().from(outboxEvents).where(and(which, sql`${outboxEvents.data} is not null`));
    for (const ev of rows) {
      const fresh = await renderData(tx, ctx, { ...ev, data: null });
      await tx.update(outboxEvents).set({ data: { ...(ev.data as Record<string, unknown>), ...fresh } }).where(eq(outboxEvents.id, ev.id));
      events++;
    }
  }
  const mails = await tx
    .update(mailMessages)
    .set({ recipient: erasedEmail, status: sql`case when ${mailMessages.status} = 'pending' then 'failed' else ${mailMessages.status} end`, lastError: sql`case when ${mailMessages.status} = 'pending' then 'recipient erased (GDPR)' else ${mailMessages.lastError} end` })
    .where(sql`lower(${mailMessages.recipient}) = lower(${email})`)
    .returning({ id: mailMessages.id });
  return { events, mails: mails.length };
}
