// Reads the audit log, newest first, filtered by actor, action, entity and time. Staff with a
// museum scope see only entries of their museums (entries without a museum are instance-wide and
// shown to unscoped staff only).
import { and, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../../db/schema/index.ts';
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
  const where: SQL[] = [];
  const p = ctx.principal;
  if (p.museumIds.length > 0) {
    where.push(sql`${auditLog.museumId} = any(${`{${p.museumIds.map(Number).join(',')}}`}::int[])`);
  }
  if (input.actor) where.push(ilike(auditLog.actor, `%${input.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (input.action) where.push(eq(auditLog.action, input.action));
  if (input.entityType) where.push(eq(auditLog.entityType, input.entityType));
  if (input.entityId) where.push(eq(auditLog.entityId, input.entityId));
  if (input.from) where.push(gte(auditLog.at, input.from));
  if (input.to) where.push(lt(auditLog.at, input.to));
  if (input.beforeId) where.push(lt(auditLog.id, input.beforeId));
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const rows = await ctx.db.select().from(auditLog).where(and(...where)).orderBy(desc(auditLog.id)).limit(limit);
  return rows.filter((r) => r.museumId === null ? p.museumIds.length === 0 : inMuseumScope(p, r.museumId));
}
