// GET /requests: the caller's visible requests, id ascending, paginated. Filters: foreign_id,
// status and updated_since (a date means the start of that day in the instance zone, a timestamp
// that instant) so a client can look up a request after a timeout (spec 7.4) or sync changes.
import { pageOfRequests, type RequestFilter } from '../../db/repositories/requests.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { isValidDate, parseTimestamp, startOfLocalDay } from '../time.ts';
import { loadViews, visibleRequests, type RequestStatus, type RequestView } from './internal.ts';

export interface ListRequestsInput {
  foreign_id?: string;
  status?: RequestStatus;
  updated_since?: string;
  page?: number;
  per_page?: number;
}

export async function listRequests(
  ctx: Ctx,
  input: ListRequestsInput,
): Promise<{ requests: RequestView[]; total: number; page: number; perPage: number }> {
  const zone = ctx.config.zone;
  const filter: RequestFilter = { scope: visibleRequests(ctx.principal) };
  if (input.foreign_id !== undefined) {
    // PostgreSQL refuses NUL in a parameter; no stored foreign_id contains one anyway.
    if (input.foreign_id.includes('\u0000')) throw new DomainError('VALIDATION_FAILED', 'foreign_id is invalid');
    filter.foreignId = input.foreign_id;
  }
  if (input.status) filter.status = input.status;
  if (input.updated_since) {
    const since = isValidDate(input.updated_since)
      ? startOfLocalDay(input.updated_since, zone)
      : parseTimestamp(input.updated_since, zone);
    if (!since) throw new DomainError('VALIDATION_FAILED', 'updated_since must be a date (YYYY-MM-DD) or an ISO 8601 timestamp');
    filter.updatedSince = since;
  }
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { rows, total } = await pageOfRequests(ctx.db, filter, { limit: perPage, offset: (page - 1) * perPage });
  return { requests: await loadViews(ctx.db, rows), total, page, perPage };
}
