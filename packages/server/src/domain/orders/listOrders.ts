// GET /orders: the caller's visible orders, id ascending, paginated. Filters: foreign_id, status
// (expired = pending past expires_at, matching what the records show), start_at/end_at on the
// creation time and updated_since. A date bound means the museum-local day in the instance zone
// (end_at inclusive of its whole day); a timestamp bound is that instant.
import { listOrderRows, type OrderFilter } from '../../db/repositories/ordersQuery.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { addDays, isValidDate, parseTimestamp, startOfLocalDay } from '../time.ts';
import { loadViews, orderScope, type OrderStatus, type OrderView } from './internal.ts';

export interface ListOrdersInput {
  foreign_id?: string;
  status?: OrderStatus;
  start_at?: string;
  end_at?: string;
  updated_since?: string;
  page?: number;
  per_page?: number;
}

/** A start_at/end_at bound: a local day (end_at: up to the start of the next) or an instant. */
function bound(f: OrderFilter, name: 'start_at' | 'end_at', text: string, zone: string): void {
  const end = name === 'end_at';
  if (isValidDate(text)) {
    if (end) f.createdBefore = startOfLocalDay(addDays(text, 1), zone);
    else f.createdFrom = startOfLocalDay(text, zone);
    return;
  }
  const at = parseTimestamp(text, zone);
  if (!at) throw new DomainError('VALIDATION_FAILED', `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp`);
  if (end) f.createdUntil = at;
  else f.createdFrom = at;
}

export async function listOrders(
  ctx: Ctx,
  input: ListOrdersInput,
): Promise<{ orders: OrderView[]; total: number; page: number; perPage: number }> {
  const zone = ctx.config.zone;
  const now = ctx.clock.now();
  const filter: OrderFilter = {};
  if (input.foreign_id !== undefined) filter.foreignId = input.foreign_id;
  if (input.status) filter.status = { is: input.status, now };
  if (input.start_at) bound(filter, 'start_at', input.start_at, zone);
  if (input.end_at) bound(filter, 'end_at', input.end_at, zone);
  if (input.updated_since) {
    const since = isValidDate(input.updated_since)
      ? startOfLocalDay(input.updated_since, zone)
      : parseTimestamp(input.updated_since, zone);
    if (!since) throw new DomainError('VALIDATION_FAILED', 'updated_since must be a date (YYYY-MM-DD) or an ISO 8601 timestamp');
    filter.updatedSince = since;
  }
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { rows, total } = await listOrderRows(ctx.db, orderScope(ctx.principal), filter, perPage, (page - 1) * perPage);
  return { orders: await loadViews(ctx.db, ctx, rows), total, page, perPage };
}
