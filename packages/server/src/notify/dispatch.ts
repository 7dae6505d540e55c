// Fan-out of the outbox (docs/adr/0018-outbox-webhooks-mail.md). Takes committed events that are
// not yet dispatched (SKIP LOCKED: any number of nodes share the work, none takes the same
// event), decides who receives each one (webhook endpoints by subscription and scope, visitor
// mails by event, customer email and the account's mail switch), and in ONE transaction writes
// the deliveries and mails, adds their jobs (one add_jobs, one NOTIFY) and clears the flags. A
// crash before the commit leaves the events pending: nothing is lost, nothing is sent twice
// (deliveries and mails are unique per event and target).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { transaction } from '../db/transaction.ts';
import type { Ctx } from '../domain/context.ts';
import { receives, type EndpointOwner, type EventScope } from '../domain/webhooks/scope.ts';
import { addJobs, TASKS, type JobSpec } from '../db/repositories/jobQueue.ts';
import { mailKindsFor, type MailRecipient } from './mail/kinds.ts';
import { renderData, type EventRow } from '../domain/events/render.ts';

/** Events per transaction; a full batch is followed at once by the next. */
export const DISPATCH_BATCH = 200;

interface Pending extends EventRow {
  accountId: number | null;
  museumIds: number[];
}
interface Endpoint extends EndpointOwner {
  id: number;
  events: string[];
  /** A disabled endpoint's deliveries are kept but not sent: they wait for a replay. */
  enabled: boolean;
}
export async function dispatchEvents(ctx: Ctx): Promise<number> {
  return transaction(ctx.db, async (tx) => {
    const evs = (
      await tx.execute<Record<string, unknown>>(sql`
        select id, type, account_id, museum_ids, subject_type, subject_id, data, snapshot, created_at from outbox_events
         where dispatch_pending order by seq limit ${DISPATCH_BATCH} for update skip locked`)
    ).rows.map(
      (r): Pending => ({
        id: r.id as string,
        type: r.type as string,
        accountId: r.account_id as number | null,
        museumIds: r.museum_ids as number[],
        subjectType: r.subject_type as string | null,
        subjectId: r.subject_id as number | null,
        data: r.data as Record<string, unknown> | null,
        snapshot: r.snapshot,
        createdAt: new Date(r.created_at as string),
      }),
    );
    if (evs.length === 0) return 0;
    const endpoints = await loadEndpoints(tx);
    const subjects = await loadSubjects(tx, evs);
    const now = ctx.clock.now();
    const jobs: JobSpec[] = [];
    for (const ev of evs) {
      const subject = ev.subjectId !== null ? subjects.get(`${ev.subjectType}:${ev.subjectId}`) : undefined;
      // The owner as it is now: an order booked by staff for a request passes to the requester.
      const scope: EventScope = subject ?? { accountId: ev.accountId, museumIds: ev.museumIds };
      const targets = endpoints.filter((e) => e.events.includes(ev.type) && receives(e, scope));
      const mails = subject ? mailKindsFor(ev.type, subject, ev.data) : [];
      if (targets.length === 0 && mails.length === 0) continue;
      const data = await renderData(tx, ctx, ev);
      await tx.execute(sql`update outbox_events set data = ${JSON.stringify(data)}::jsonb where id = ${ev.id}`);
      if (targets.length) {
        const ids = await tx.execute<{ id: number; endpoint_id: number }>(sql`
          insert into webhook_deliveries (endpoint_id, event_id, created_at, updated_at)
          select unnest(${`{${targets.map((t) => t.id).join(',')}}`}::int[]), ${ev.id}, ${now}, ${now}
          on conflict (endpoint_id, event_id) do nothing returning id, endpoint_id`);
        // Deliveries to a disabled endpoint are recorded without a job (docs/webhooks.md): the
        // account sees them in its delivery list and replays them once the endpoint is enabled.
        const held = new Set(targets.filter((t) => !t.enabled).map((t) => t.id));
        for (const { id, endpoint_id } of ids.rows) {
          if (!held.has(endpoint_id)) jobs.push({ task: TASKS.deliverWebhook, payload: { deliveryId: id }, key: `webhook-delivery:${id}`, maxAttempts: 5 });
        }
      }
      for (const m of mails) {
        const ids = await tx.execute<{ id: number }>(sql`
          insert into mail_messages (event_id, kind, recipient, locale, created_at)
          values (${ev.id}, ${m.kind}, ${m.email}, ${m.locale ?? ctx.config.locales[0]!}, ${now})
          on conflict (event_id, kind) do nothing returning id`);
        for (const { id } of ids.rows) jobs.push({ task: TASKS.sendMail, payload: { mailId: id }, key: `mail:${id}`, maxAttempts: 12 });
      }
    }
    await addJobs(tx, jobs);
    await tx.execute(sql`update outbox_events set dispatch_pending = false where id = any(${`{${evs.map((e) => e.id).join(',')}}`}::text[])`);
    return evs.length;
  });
}

async function loadEndpoints(tx: DbOrTx): Promise<Endpoint[]> {
  const r = await tx.execute<Record<string, unknown>>(sql`
    select e.id, e.account_id, e.events, e.enabled, a.class, a.museum_ids, a.rights
      from webhook_endpoints e join accounts a on a.id = e.account_id
     where e.deleted_at is null and a.disabled_at is null`);
  return r.rows.map((x) => ({
    id: x.id as number,
    enabled: x.enabled as boolean,
    accountId: x.account_id as number,
    events: x.events as string[],
    class: x.class as string,
    museumIds: x.museum_ids as number[],
    rights: x.rights as string[],
  }));
}

/** Current owner, museums and visitor (email, locale, mail switch) of the events' orders and requests. */
async function loadSubjects(tx: DbOrTx, evs: Pending[]): Promise<Map<string, EventScope & MailRecipient>> {
  const ids = (type: string) => [...new Set(evs.filter((e) => e.subjectType === type && e.subjectId !== null).map((e) => e.subjectId!))];
  const out = new Map<string, EventScope & MailRecipient>();
  const orderIds = ids('order');
  const requestIds = ids('request');
  const documentIds = ids('document');
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select 'order' as t, o.id, o.account_id, o.museum_ids, c.email, c.locale, coalesce(s.mail_enabled, true) as mail
      from orders o left join customers c on c.id = o.customer_id left join account_notify_settings s on s.account_id = o.account_id
     where o.id = any(${`{${orderIds.join(',')}}`}::int[])
    union all
    select 'request', r.id, r.account_id, r.museum_ids, coalesce(c.email, r.contact->>'email'), c.locale, coalesce(s.mail_enabled, true)
      from requests r left join customers c on c.id = r.customer_id left join account_notify_settings s on s.account_id = r.account_id
     where r.id = any(${`{${requestIds.join(',')}}`}::int[])
    union all
    select 'document', d.id, d.account_id, d.museum_ids, null, null, false
      from documents d where d.id = any(${`{${documentIds.join(',')}}`}::int[])`);
  for (const r of rows.rows) {
    out.set(`${r.t}:${r.id}`, {
      accountId: r.account_id as number,
      museumIds: r.museum_ids as number[],
      email: (r.email as string | null) || null,
      locale: (r.locale as string | null) || null,
      mailEnabled: r.mail as boolean,
    });
  }
  return out;
}
