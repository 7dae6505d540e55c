// GET /webhooks/:id/deliveries (every attempt: status, time, response excerpt, reason),
// POST …/deliveries/:delivery_id/retry (replays one delivery now, with a fresh retry schedule) and
// POST /webhooks/:id/test (a `webhook.test` event for this endpoint only). Retries and tests go
// through the same job queue as every delivery (notify/webhooks/deliver.ts).
import { and, asc, count, desc, eq, getTableColumns, inArray } from 'drizzle-orm';
import { outboxEvents, webhookAttempts, webhookDeliveries } from '../../db/schema/index.ts';
import { addJobs, TASKS } from '../../db/repositories/jobQueue.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { newEventId } from '../events/record.ts';
import { findEndpoint } from './internal.ts';

export type AttemptView = typeof webhookAttempts.$inferSelect;
export type DeliveryView = typeof webhookDeliveries.$inferSelect & { eventType: string; attempts: AttemptView[] };

async function withAttempts(ctx: Ctx, rows: Array<typeof webhookDeliveries.$inferSelect & { eventType: string }>): Promise<DeliveryView[]> {
  if (rows.length === 0) return [];
  const attempts = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id)))
    .orderBy(asc(webhookAttempts.id));
  return rows.map((r) => ({ ...r, attempts: attempts.filter((a) => a.deliveryId === r.id) }));
}

const columns = { ...getTableColumns(webhookDeliveries), eventType: outboxEvents.type };

export async function listDeliveries(ctx: Ctx, endpointId: number, input: { page?: number; per_page?: number }) {
  await findEndpoint(ctx.db, ctx, endpointId);
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const where = eq(webhookDeliveries.endpointId, endpointId);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(columns)
      .from(webhookDeliveries)
      .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    ctx.db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { deliveries: await withAttempts(ctx, rows), total: total?.n ?? 0, page, perPage };
}

async function one(ctx: Ctx, endpointId: number, deliveryId: number): Promise<DeliveryView> {
  const rows = await ctx.db
    .select(columns)
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  if (!rows[0]) throw notFound('delivery');
  return (await withAttempts(ctx, rows))[0]!;
}

function assertEnabled(ep: { enabled: boolean }): void {
  if (!ep.enabled) throw invalid('webhook is disabled', ['Enable it first (PATCH with "enabled": true)']);
}

export async function retryDelivery(ctx: Ctx, endpointId: number, deliveryId: number): Promise<DeliveryView> {
  const ep = await findEndpoint(ctx.db, ctx, endpointId);
  await one(ctx, endpointId, deliveryId);
  assertEnabled(ep);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', attemptCount: 0, nextAttemptAt: now, updatedAt: now })
      .where(eq(webhookDeliveries.id, deliveryId));
    await addJobs(tx, [{ task: TASKS.deliverWebhook, payload: { deliveryId }, key: `webhook-delivery:${deliveryId}`, maxAttempts: 5 }]);
  });
  return one(ctx, endpointId, deliveryId);
}

export async function testWebhook(ctx: Ctx, endpointId: number): Promise<DeliveryView> {
  const ep = await findEndpoint(ctx.db, ctx, endpointId);
  assertEnabled(ep);
  const id = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const eventId = newEventId();
    // Already dispatched: it goes to this endpoint only, whatever its subscriptions.
    await tx.insert(outboxEvents).values({
      id: eventId,
      type: 'webhook.test',
      accountId: ep.accountId,
      data: { webhook: { id: ep.id, url: ep.url } },
      createdAt: now,
      dispatchPending: false,
    });
    const [d] = await tx.insert(webhookDeliveries).values({ endpointId, eventId, createdAt: now, updatedAt: now }).returning();
    await addJobs(tx, [{ task: TASKS.deliverWebhook, payload: { deliveryId: d!.id }, key: `webhook-delivery:${d!.id}`, maxAttempts: 5 }]);
    return d!.id;
  });
  return one(ctx, endpointId, id);
}
