// Job verb `mail.send`: sends one visitor mail (a mail_messages row, unique per event and kind,
// so an event never causes the same mail twice). A confirmation waits until its PDFs are
// rendered (re-queued with a growing pause, bounded). An SMTP failure is recorded and thrown, so
// the queue retries with backoff; after MAX_ATTEMPTS, or at once on a permanent refusal (an SMTP
// 5xx answer), the mail is `failed`, stored and logged with the reason.
// Once the SMTP server has accepted a mail, `sent` is written with retries that outlast a
// database restart: a lost write would leave the mail pending, and the queue would send it again.
// The Message-ID is fixed per mail: if a crash repeats a send the SMTP server already accepted,
// mail systems can recognise the duplicate.
import { sql } from 'drizzle-orm';
import { resolveLocale } from '../../i18n/index.ts';
import type { Ctx } from '../../domain/context.ts';
import { addJobs, TASKS } from '../../db/repositories/jobQueue.ts';
import { attachmentsFor, manageUrlOf, orderContent, requestContent, soldCodeAttachments } from './content.ts';
import type { MailKind } from './kinds.ts';
import { renderMail } from './templates.ts';
import { mailStem } from './files.ts';
import { deliverMail } from './transport.ts';
import { OUTAGE_WAITS_MS, withRetries } from '../retries.ts';

export const MAX_ATTEMPTS = 12;

/** Whether the SMTP server refused for good (a 5xx reply code), not for now (4xx, network). */
export function isPermanent(err: unknown): boolean {
  const code = Number((err as { responseCode?: unknown } | null)?.responseCode);
  return Number.isInteger(code) && code >= 500 && code <= 599;
}
/** Checks for the documents before sending without them (≈ 1 hour at most). */
export const MAX_WAITS = 40;

type Row = { id: number; event_id: string; kind: string; recipient: string; locale: string; status: string; attempt_count: number; subject_type: string | null; subject_id: number | null; data: { cancelled_item_ids?: number[]; refund?: { amount_cents?: number } } | null };

export async function sendMail(
  ctx: Ctx,
  input: { mailId: number; waits?: number },
  log?: { warn(obj: object, msg: string): void; error?(obj: object, msg: string): void },
  /** The pauses between tries to record a mail the SMTP server accepted (tests shorten them). */
  recordWaitsMs: readonly number[] = OUTAGE_WAITS_MS,
): Promise<'sent' | 'waiting' | 'failed' | 'skipped'> {
  const [m] = (
    await ctx.db.execute<Row>(sql`
      select m.id, m.event_id, m.kind, m.recipient, m.locale, m.status, m.attempt_count, e.subject_type, e.subject_id, e.data
        from mail_messages m join outbox_events e on e.id = m.event_id where m.id = ${input.mailId}`)
  ).rows;
  if (!m || m.status !== 'pending' || m.subject_id === null) return 'skipped';
  const kind = m.kind as MailKind;
  const lang = resolveLocale(m.locale, ctx.config.locales[0]);
  const isOrder = m.subject_type === 'order';
  const content = isOrder ? await orderContent(ctx.db, m.subject_id, lang) : await requestContent(ctx.db, m.subject_id);
  if (!content) return 'skipped';
  const waits = input.waits ?? 0;
  let attachments = isOrder ? await attachmentsFor(ctx.db, kind, m.subject_id, m.data?.cancelled_item_ids ?? []) : [];
  if (attachments === null) {
    if (waits < MAX_WAITS) {
      // A PDF usually takes under a second: ask again after half a second, then back off to a
      // minute between checks (the same bound as before, about 36 minutes over MAX_WAITS).
      const pause = Math.min(500 * 2 ** Math.min(waits, 7), 64_000);
      await addJobs(ctx.db, [{ task: TASKS.sendMail, payload: { mailId: m.id, waits: waits + 1 }, key: `mail:${m.id}`, maxAttempts: MAX_ATTEMPTS, runAt: new Date(Date.now() + pause).toISOString() }]);
      return 'waiting';
    }
    log?.warn({ mailId: m.id, eventId: m.event_id }, 'documents still processing; confirmation mail sent without them');
    attachments = [];
  }
  if (isOrder && kind === 'order_confirmation') attachments = [...attachments, ...(await soldCodeAttachments(ctx, m.subject_id))];
  const returned = kind === 'payment_returned' ? { returnedCents: m.data?.refund?.amount_cents ?? 0 } : {};
  const manageUrl = kind === 'order_confirmation' ? await manageUrlOf(ctx, m.subject_id) : null;
  const { subject, text, html } = renderMail(kind, lang, { ...content, ...returned, attached: attachments.map((a) => a.kind), ...(manageUrl ? { manageUrl } : {}) });
  const s = ctx.config.notify;
  const domain = /@([^>\s]+)>?\s*$/.exec(s.mailFrom)?.[1] ?? 'atrium.invalid';
  const messageId = `<${m.event_id}.${kind}@${domain}>`;
  let sent: { messageId: string };
  try {
    sent = await deliverMail(
      s,
      ctx.config.dataDir,
      {
        from: s.mailFrom,
        ...(s.mailReplyTo ? { replyTo: s.mailReplyTo } : {}),
        to: m.recipient,
        subject,
        text,
        html,
        messageId,
        headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': lang },
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      },
      mailStem(m.id, kind),
    );
  } catch (err) {
    const reason = String((err as Error).message ?? err).slice(0, 500);
    const attempts = m.attempt_count + 1;
    // A 5xx answer (550 mailbox unknown, 553 address refused) will not change on a retry.
    const failed = attempts >= MAX_ATTEMPTS || isPermanent(err);
    await ctx.db.execute(sql`update mail_messages set attempt_count = ${attempts}, last_error = ${reason}, status = ${failed ? 'failed' : 'pending'} where id = ${m.id}`);
    log?.warn({ mailId: m.id, eventId: m.event_id, kind, attempt: attempts, reason }, failed ? 'mail failed; giving up' : 'mail failed; will retry');
    if (failed) return 'failed';
    throw new Error(`mail ${m.id} not sent: ${reason}`);
  }
  try {
    await withRetries(
      () =>
        ctx.db.execute(sql`update mail_messages set status = 'sent', sent_at = ${ctx.clock.now()}, message_id = ${sent.messageId}, locale = ${lang},
          attempt_count = attempt_count + 1 where id = ${m.id} and status = 'pending'`),
      recordWaitsMs,
    );
  } catch (err) {
    // The database stayed away longer than the waits: the queue's retry will send it again.
    log?.error?.({ mailId: m.id, eventId: m.event_id, kind }, 'mail sent but not recorded; it may be sent twice');
    throw new Error(`mail ${m.id} sent but not recorded: ${String((err as Error).message ?? err).slice(0, 200)}`);
  }
  return 'sent';
}
