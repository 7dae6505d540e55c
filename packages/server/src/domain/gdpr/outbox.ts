// The erasure's part in what leaves the service (docs/webhooks.md): events store the rendered
// order or request they report (comment, attendees, contact), and mails store their recipient.
// After the person's records are anonymised, their events' stored subject is rendered again
// from the erased records (a retry then sends the erased form), and mails to the person's
// address get the erased address; a pending one is marked failed so it is never sent.
import type { Tx } from '../../db/client.ts';
import { eraseMailRecipient, renderedEventsAbout, resnapshotOrderEvents, setEventData } from '../../db/repositories/gdpr.ts';
import { renderData } from '../events/render.ts';
import type { Ctx } from '../context.ts';

export async function eraseFromOutbox(
  tx: Tx,
  ctx: Ctx,
  ids: { orders: number[]; requests: number[]; documents: number[] },
  email: string,
  erasedEmail: string,
): Promise<{ events: number; mails: number; mailIds: number[] }> {
  // Order snapshots are taken again from the anonymised records: the erasure wins over showing
  // the order exactly as it was.
  await resnapshotOrderEvents(tx, ids);
  let events = 0;
  for (const ev of await renderedEventsAbout(tx, ids)) {
    const fresh = await renderData(tx, ctx, { ...ev, data: null });
    await setEventData(tx, ev.id, { ...(ev.data as Record<string, unknown>), ...fresh });
    events++;
  }
  // The mails to the person, by id: their stored copies are the mail area's to remove.
  const mailIds = await eraseMailRecipient(tx, email, erasedEmail);
  return { events, mails: mailIds.length, mailIds };
}
