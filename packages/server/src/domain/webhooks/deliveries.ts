// GET /webhooks/:id/deliveries (every attempt: status, time, response excerpt, reason),
// POST …/deliveries/:delivery_id/retry (replays one delivery now, with a fresh retry schedule) and
// POST /webhooks/:id/test (a `webhook.test` event for this endpoint only). Retries and tests go
// through the same job queue as every delivery (notify/webhooks/deliver.ts).
import {
  attemptsOf, deliveryOfEndpoint, insertDelivery, insertDispatchedEvent, pageOfDeliveries, rearmDelivery,
  type AttemptRow, type DeliveryRow,
} from '../../db/repositories/webhooks.ts';
import { transaction } from '../../db/transaction.ts';
import { addJobs, TASKS } from '../../db/repositories/jobQueue.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { newEventId } from '../events/record.ts';
import { findEndpoint } from './internal.ts';

export type AttemptView = AttemptRow;
export type DeliveryView = DeliveryRow & { attempts: AttemptView[] };

async function withAttempts(ctx: Ctx, rows: DeliveryRow[]): Promise<DeliveryView[]> {
  if (rows.length === 0) return [];
  const attempts = await attemptsOf(ctx.db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, attempts: attempts.filter((a) => a.deliveryId === r.id) }));
}

export async function listDeliveries(ctx: Ctx, endpointId: number, input: { page?: number; per_page?: number }) {
  await findEndpoint(ctx.db, ctx, endpointId);
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { rows, total } = await pageOfDeliveries(ctx.db, endpointId, { limit: perPage, offset: (page - 1) * perPage });
  return { deliveries: await withAttempts(ctx, rows), total, page, perPage };
}

async function one(ctx: Ctx, endpointId: number, deliveryId: number): Promise<DeliveryView> {
  const row = await deliveryOfEndpoint(ctx.db, endpointId, deliveryId);
  if (!row) throw notFound('delivery');
  return (await withAttempts(ctx, [row]))[0]!;
}

function assertEnabled(ep: { enabled: boolean }): void {
  if (!ep.enabled) throw invalid('webhook is disabled', ['Enable it first (PATCH with "enabled": true)']);
}

export async function retryDelivery(ctx: Ctx, endpointId: number, deliveryId: number): Promise<DeliveryView> {
  const ep = await findEndpoint(ctx.db, ctx, endpointId);
  await one(ctx, endpointId, deliveryId);
  assertEnabled(ep);
  await transaction(ctx.db, async (tx) => {
    await rearmDelivery(tx, deliveryId, ctx.clock.now());
    await addJobs(tx, [{ task: TASKS.deliverWebhook, payload: { deliveryId }, key: `webhook-delivery:${deliveryId}`, maxAttempts: 5 }]);
  });
  return one(ctx, endpointId, deliveryId);
}

export async function testWebhook(ctx: Ctx, endpointId: number): Promise<DeliveryView> {
  const ep = await findEndpoint(ctx.db, ctx, endpointId);
  assertEnabled(ep);
  const id = await transaction(ctx.db, async (tx) => {
    const now = ctx.clock.now();
    const eventId = newEventId();
    // Already dispatched: it goes to this endpoint only, whatever its subscriptions.
    await insertDispatchedEvent(tx, { id: eventId, type: 'webhook.test', accountId: ep.accountId, data: { webhook: { id: ep.id, url: ep.url } }, createdAt: now });
    const deliveryId = await insertDelivery(tx, endpointId, eventId, now);
    await addJobs(tx, [{ task: TASKS.deliverWebhook, payload: { deliveryId }, key: `webhook-delivery:${deliveryId}`, maxAttempts: 5 }]);
    return deliveryId;
  });
  return one(ctx, endpointId, id);
}
