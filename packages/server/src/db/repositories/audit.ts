// Statements of the audit log: append an entry, search entries newest first. The table is
// append-only (a trigger refuses UPDATE/DELETE/TRUNCATE).
import { and, desc, eq, gte, ilike, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { auditLog } from '../schema/index.ts';
import { intArray } from './scope.ts';

export type AuditRow = typeof auditLog.$inferSelect;

export async function insertAuditEntry(db: DbOrTx, values: typeof auditLog.$inferInsert): Promise<void> {
  await db.insert(auditLog).values(values);
}

export interface AuditFilter {
  /** Entries of these museums only; absent = every entry. */
  museumIds?: number[];
  /** Part of the actor's email, matched case-insensitively as plain text. */
  actor?: string;
  /** Who made the change: a staff user, the command line, or a system actor (payments, shop). */
  source?: 'staff' | 'cli' | 'system';
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: Date;
  to?: Date;
  beforeId?: number;
}

export async function searchAuditEntries(db: DbOrTx, f: AuditFilter, limit: number): Promise<AuditRow[]> {
  const where: SQL[] = [];
  if (f.museumIds) where.push(sql`${auditLog.museumId} = any(${intArray(f.museumIds)})`);
  if (f.actor) where.push(ilike(auditLog.actor, `%${f.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (f.source === 'staff') where.push(isNotNull(auditLog.staffUserId));
  if (f.source === 'cli') where.push(and(isNull(auditLog.staffUserId), eq(auditLog.actor, 'cli'))!);
  if (f.source === 'system') where.push(and(isNull(auditLog.staffUserId), ne(auditLog.actor, 'cli'))!);
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.entityType) where.push(eq(auditLog.entityType, f.entityType));
  if (f.entityId) where.push(eq(auditLog.entityId, f.entityId));
  if (f.from) where.push(gte(auditLog.at, f.from));
  if (f.to) where.push(lt(auditLog.at, f.to));
  if (f.beforeId) where.push(lt(auditLog.id, f.beforeId));
  return db.select().from(auditLog).where(and(...where)).orderBy(desc(auditLog.id)).limit(limit);
}
