// GET /documents: the caller's visible documents, id ascending, paginated. Filters: order_id,
// request_id, kind, status (as shown: "expired" includes documents past available_until that
// the purge job has not reached yet).
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { documents } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { metaColumns, toMeta, visibleDocuments, type DocumentKind, type DocumentMeta, type DocumentStatus } from './internal.ts';

export interface ListDocumentsInput {
  order_id?: number;
  request_id?: number;
  kind?: DocumentKind;
  status?: DocumentStatus;
  page?: number;
  per_page?: number;
}

function shownStatus(now: Date): SQL {
  return sql`(case when ${documents.status} in ('processing', 'available') and ${documents.availableUntil} <= ${now}
    then 'expired' else ${documents.status} end)`;
}

export async function listDocuments(
  ctx: Ctx,
  input: ListDocumentsInput,
): Promise<{ documents: DocumentMeta[]; total: number; page: number; perPage: number }> {
  const now = ctx.clock.now();
  const where: SQL[] = [visibleDocuments(ctx.principal)];
  if (input.order_id !== undefined) where.push(eq(documents.orderId, input.order_id));
  if (input.request_id !== undefined) where.push(eq(documents.requestId, input.request_id));
  if (input.kind) where.push(eq(documents.kind, input.kind));
  if (input.status) where.push(sql`${shownStatus(now)} = ${input.status}`);
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const cond = and(...where);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(documents).where(cond);
  const rows = await ctx.db
    .select(metaColumns)
    .from(documents)
    .where(cond)
    .orderBy(asc(documents.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { documents: rows.map((r) => toMeta(r, now)), total: n, page, perPage };
}
