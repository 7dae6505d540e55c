// GET /orders: the caller's visible orders, id ascending, paginated. Filters: foreign_id, status
// (expired = pending past expires_at, matching what the records show), start_at/end_at on the
// creation time and updated_since. A date bound means the museum-local day in the instance zone
// (end_at inclusive of its whole day); a timestamp bound is that instant.
import { and, asc, count, eq, gt, gte, lt, lte, or, type SQL } from 'drizzle-orm';
import { orders } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { addDays, isValidDate, parseTimestamp, startOfLocalDay } from '../time.ts';
import { loadViews, visibleOrders, type OrderStatus, type OrderView } from './internal.ts';

export interface ListOrdersInput {
  foreign_id?: string;
  status?: OrderStatus;
  start_at?: string;
  end_at?: string;
  updated_since?: string;
  page?: number;
  per_page?: number;
}

function bound(name: string, text: string, zone: string, end: boolean): SQL {
  if (isValidDate(text)) {
    return end ? lt(orders.createdAt, startOfLocalDay(addDays(text, 1), zone)) : gte(orders.createdAt, startOfLocalDay(text, zone));
  }
  const at = parseTimestamp(text, zone);
  if (!at) throw new DomainError('VALIDATION_FAILED', `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp`);
  return end ? lte(orders.createdAt, at) : gte(orders.createdAt, at);
}

function statusFilter(status: OrderStatus, now: Date): SQL {
  const lapsed = and(eq(orders.status, 'pending'), lte(orders.expiresAt, now))!;
  if (status === 'expired') return or(eq(orders.status, 'expired'), lapsed)!;
  if (status === 'pending') return and(eq(orders.status, 'pending'), gt(orders.expiresAt, now))!;
  return eq(orders.status, status);
}

export async function listOrders(
  ctx: Ctx,
  input: ListOrdersInput,
): Promise<{ orders: OrderView[]; total: number; page: number; perPage: number }> {
  const zone = ctx.config.zone;
  const now = ctx.clock.now();
  const where: SQL[] = [visibleOrders(ctx.principal)];
  if (input.foreign_id !== undefined) where.push(eq(orders.foreignId, input.foreign_id));
  if (input.status) where.push(statusFilter(input.status, now));
  if (input.start_at) where.push(bound('start_at', input.start_at, zone, false));
  if (input.end_at) where.push(bound('end_at', input.end_at, zone, true));
  if (input.updated_since) {
    const since = isValidDate(input.updated_since)
      ? startOfLocalDay(input.updated_since, zone)
      : parseTimestamp(input.updated_since, zone);
    if (!since) throw new DomainError('VALIDATION_FAILED', 'updated_since must be a date (YYYY-MM-DD) or an ISO 8601 timestamp');
    where.push(gte(orders.updatedAt, since));
  }
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const cond = and(...where);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(orders).where(cond);
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(cond)
    .orderBy(asc(orders.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { orders: await loadViews(ctx.db, ctx, rows), total: Number(n), page, perPage };
}
