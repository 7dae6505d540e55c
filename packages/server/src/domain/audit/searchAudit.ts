// Reads the audit log, newest first, filtered by actor, action, entity and time. Staff with a
// museum scope see only entries of their museums (entries without a museum are instance-wide and
// shown to unscoped staff only).
import { searchAuditEntries } from '../../db/repositories/audit.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';

export interface SearchAuditInput {
  actor?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: Date;
  to?: Date;
  limit?: number;
  beforeId?: number;
}

export async function searchAudit(ctx: Ctx, input: SearchAuditInput) {
  const p = ctx.principal;
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const rows = await searchAuditEntries(ctx.db, { ...input, ...(p.museumIds.length > 0 ? { museumIds: p.museumIds } : {}) }, limit);
  return rows.filter((r) => r.museumId === null ? p.museumIds.length === 0 : inMuseumScope(p, r.museumId));
}
