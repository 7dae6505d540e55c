// Reads the audit log, newest first, filtered by actor, action, entity and time. Staff with a
// museum scope see only entries of their museums (entries without a museum are instance-wide and
// shown to unscoped staff only).
import { searchAuditEntries, type AuditFilter } from '../../db/repositories/audit.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';

/** The repository's filter less the museum scope, which comes from the caller. */
export type SearchAuditInput = Omit<AuditFilter, 'museumIds'> & { limit?: number };

export async function searchAudit(ctx: Ctx, input: SearchAuditInput) {
  const p = ctx.principal;
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const rows = await searchAuditEntries(ctx.db, { ...input, ...(p.museumIds.length > 0 ? { museumIds: p.museumIds } : {}) }, limit);
  return rows.filter((r) => r.museumId === null ? p.museumIds.length === 0 : inMuseumScope(p, r.museumId));
}
