// Job verb `webhooks.deliver` (docs/webhooks.md, "Delivery"): one attempt of one delivery. The
// outcome is logged as an attempt row (status, time, response excerpt, reason) and decides what
// follows: a 2xx ends it; a failure schedules the next attempt by the endpoint retry schedule
// (config notify.webhooksRetryMs, ≈ 3 days in total) as a new job with run_at, so waiting costs
// nothing and survives restarts; after the last failure the delivery is `failed` and the
// endpoint is disabled with the reason. At least once: a crash after the POST but before the
// attempt row commits repeats the POST (receivers deduplicate by `webhook-id`).
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../domain/context.ts';
import { addJobs } from '../dispatch.ts';
import { eventBody, renderData } from '../render.ts';
import { TASKS } from '../../jobs/queue.ts';
import { openSecret } from './secrets.ts';
import { postSigned, signedHeaders, type AttemptResult } from './post.ts';
import { checkTarget, TargetRefused } from './targets.ts';

export type DeliverOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped';

type Row = {
  id: number;
  status: string;
  attempt_count: number;
  endpoint_id: number;
  url: string;
  secret_enc: string;
  enabled: boolean;
  deleted_at: string | null;
  event_id: string;
  type: string;
  subject_type: string | null;
  subject_id: number | null;
  data: Record<string, unknown> | null;
  created_at: string;
};

export async function deliverWebhook(
  ctx: Ctx,
  input: { deliveryId: number },
  log?: { warn(obj: object, msg: string): void },
): Promise<DeliverOutcome> {
  const [row] = (
    await ctx.db.execute<Row>(sql`
      select d.id, d.status, d.attempt_count, d.endpoint_id, e.url, e.secret_enc, e.enabled, e.deleted_at,
             v.id as event_id, v.type, v.subject_type, v.subject_id, v.data, v.created_at
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join outbox_events v on v.id = d.event_id
       where d.id = ${input.deliveryId}`)
  ).rows;
  if (!row || row.status !== 'pending') return 'skipped';
  const now = ctx.clock.now();
  if (row.deleted_at || !row.enabled) {
    await ctx.db.execute(sql`update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = ${now} where id = ${row.id} and status = 'pending'`);
    return 'skipped';
  }
  const ev = { id: row.event_id, type: row.type, subjectType: row.subject_type, subjectId: row.subject_id, data: row.data, createdAt: new Date(row.created_at) };
  // Test events and events of the dispatch already carry their data; rendered here only if not.
  const data = row.data ?? (await renderData(ctx.db, ctx, ev));
  const body = eventBody(ev, data, ctx.config.zone);
  const s = ctx.config.notify;
  let result: AttemptResult;
  const started = Date.now();
  try {
    const target = await checkTarget(row.url, s.webhooksAllowPrivate);
    result = await postSigned(target, signedHeaders(openSecret(row.secret_enc, s.webhooksSecretKey), row.event_id, new Date(), body), body, s.webhooksTimeoutMs);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    result = { ok: false, statusCode: null, error: `refused: ${err.message}`, excerpt: null, durationMs: Date.now() - started };
  }
  const attempt = row.attempt_count + 1;
  const wait = s.webhooksRetryMs[attempt - 1];
  const outcome: DeliverOutcome = result.ok ? 'succeeded' : wait === undefined ? 'failed' : 'retrying';
  // The queue runs jobs by the database's clock: the wait is counted from real time.
  const next = outcome === 'retrying' ? new Date(Date.now() + wait!) : null;
  await ctx.db.transaction(async (tx) => {
    const at = ctx.clock.now();
    await tx.execute(sql`
      insert into webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, error, response_excerpt)
      values (${row.id}, ${at}, ${result.durationMs}, ${result.statusCode}, ${result.error}, ${result.excerpt})`);
    await tx.execute(sql`
      update webhook_deliveries set attempt_count = ${attempt}, updated_at = ${at}, next_attempt_at = ${next},
             status = ${outcome === 'retrying' ? 'pending' : outcome} where id = ${row.id}`);
    if (next) {
      await addJobs(tx, [{ task: TASKS.deliverWebhook, payload: { deliveryId: row.id }, key: `webhook-delivery:${row.id}`, maxAttempts: 5, runAt: next.toISOString() }]);
    }
    if (outcome === 'failed') {
      const reason = `delivery of ${row.event_id} failed ${attempt} times; last: ${result.error}`;
      await tx.execute(sql`
        update webhook_endpoints set enabled = false, disabled_reason = ${reason.slice(0, 500)}, disabled_at = ${at}, updated_at = ${at}
         where id = ${row.endpoint_id} and enabled`);
    }
  });
  if (!result.ok) {
    log?.warn(
      { endpointId: row.endpoint_id, deliveryId: row.id, eventId: row.event_id, attempt, status: result.statusCode, reason: result.error, outcome },
      'webhook delivery failed',
    );
  }
  return outcome;
}
