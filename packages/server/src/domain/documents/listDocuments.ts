// GET /documents: the caller's visible documents, id ascending, paginated. Filters: order_id,
// request_id, kind, status (as shown: "expired" includes documents past available_until that
// the purge job has not reached yet).
import { pageOfDocuments } from '../../db/repositories/documents/documents.ts';
import type { Ctx } from '../context.ts';
import { toMeta, visibleDocuments, type DocumentKind, type DocumentMeta, type DocumentStatus } from './internal.ts';

export interface ListDocumentsInput {
  order_id?: number;
  request_id?: number;
  kind?: DocumentKind;
  status?: DocumentStatus;
  page?: number;
  per_page?: number;
}

export async function listDocuments(
  ctx: Ctx,
  input: ListDocumentsInput,
): Promise<{ documents: DocumentMeta[]; total: number; page: number; perPage: number }> {
  const now = ctx.clock.now();
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { rows, total } = await pageOfDocuments(
    ctx.db,
    {
      scope: visibleDocuments(ctx.principal),
      ...(input.order_id !== undefined ? { orderId: input.order_id } : {}),
      ...(input.request_id !== undefined ? { requestId: input.request_id } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
      // As shown: "expired" includes documents past available_until the purge job has not reached.
      ...(input.status ? { shownStatus: { status: input.status, now } } : {}),
    },
    { limit: perPage, offset: (page - 1) * perPage },
  );
  return { documents: rows.map((r) => toMeta(r, now)), total, page, perPage };
}
