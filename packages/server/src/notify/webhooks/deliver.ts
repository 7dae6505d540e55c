// Job verb `webhooks.deliver` (docs/webhooks.md, "Delivery"): one attempt of one delivery. The
// outcome is logged as an attempt row (status, time, response excerpt, reason) and decides what
// follows: a 2xx ends it; a failure schedules the next attempt by the endpoint retry schedule
// (config notify.webhooksRetryMs, ≈ 3 days in total) as a new job with run_at, so waiting costs
// nothing and survives restarts; after the last failure the delivery is `failed` and the
// endpoint is disabled with the reason. One send per attempt: the delivery is claimed before the
// POST (claim.ts), so no second job sends it meanwhile, and the outcome is written with retries.
// At least once all the same: a crash between the POST and that write repeats the POST once the
// claim lapses (receivers deduplicate by `webhook-id`).
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../domain/context.ts';
import { transaction } from '../../db/transaction.ts';
import { addJobs, TASKS } from '../../db/repositories/jobQueue.ts';
import { eventBody, renderData } from '../../domain/events/render.ts';
import { claimDelivery } from './claim.ts';
import { withRetries } from '../retries.ts';
import { openSecret } from '../../domain/webhooks/secrets.ts';
import { webhookKey } from './key.ts';
import { postSigned, signedHeaders, type AttemptResult } from './post.ts';
import { checkTarget, TargetRefused } from '../../domain/webhooks/targets.ts';

export type DeliverOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped';

export async function deliverWebhook(
  ctx: Ctx,
  input: { deliveryId: number },
  log?: { warn(obj: object, msg: string): void },
): Promise<DeliverOutcome> {
  const c = await claimDelivery(ctx, input.deliveryId);
  if (c === 'done' || c === 'endpoint gone') return 'skipped';
  const s = ctx.config.notify;
  // Test events and events of the dispatch already carry their data; rendered here only if not.
  const data = c.event.data ?? (await renderData(ctx.db, ctx, c.event));
  const body = eventBody(c.event, data, ctx.config.zone);
  let result: AttemptResult;
  const started = Date.now();
  try {
    const target = await checkTarget(c.url, s.webhooksAllowPrivate);
    result = await postSigned(target, signedHeaders(openSecret(c.secretEnc, webhookKey(ctx.config)), c.event.id, new Date(), body), body, s.webhooksTimeoutMs);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    result = { ok: false, statusCode: null, error: `refused: ${err.message}`, excerpt: null, durationMs: Date.now() - started };
  }
  const wait = s.webhooksRetryMs[c.scheduled - 1];
  const outcome: DeliverOutcome = result.ok ? 'succeeded' : wait === undefined ? 'failed' : 'retrying';
  // The queue runs jobs by the database's clock: the wait is counted from real time.
  const next = outcome === 'retrying' ? new Date(Date.now() + wait!) : null;
  await withRetries(() =>
    transaction(ctx.db, async (tx) => {
      const at = ctx.clock.now();
      await tx.execute(sql`
        update webhook_attempts set duration_ms = ${result.durationMs}, status_code = ${result.statusCode}, error = ${result.error},
               response_excerpt = ${result.excerpt} where id = ${c.attemptId}`);
      await tx.execute(sql`
        update webhook_deliveries set updated_at = ${at}, next_attempt_at = ${next}, sending_until = null,
               status = ${outcome === 'retrying' ? 'pending' : outcome} where id = ${c.id}`);
      if (next) {
        await addJobs(tx, [{ task: TASKS.deliverWebhook, payload: { deliveryId: c.id }, key: `webhook-delivery:${c.id}`, maxAttempts: 5, runAt: next.toISOString() }]);
      }
      if (outcome === 'failed') {
        const reason = `delivery of ${c.event.id} failed ${c.scheduled} times; last: ${result.error}`;
        await tx.execute(sql`
          update webhook_endpoints set enabled = false, disabled_reason = ${reason.slice(0, 500)}, disabled_at = ${at}, updated_at = ${at}
           where id = ${c.endpointId} and enabled`);
      }
    }),
  );
  if (!result.ok) {
    log?.warn(
      { endpointId: c.endpointId, deliveryId: c.id, eventId: c.event.id, attempt: c.attemptNo, status: result.statusCode, reason: result.error, outcome },
      'webhook delivery failed',
    );
  }
  return outcome;
}
