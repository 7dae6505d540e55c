// Quota capacity on a date: a per-date override wins (null = closed), else the quota's own.
// Shared by claims and availability reads.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { quotaOverrides, quotas, ticketQuotas } from '../../db/schema/index.ts';

export interface QuotaOnDate {
  quotaId: number;
  kind: string;
  /** Capacity per slot (or per day) on the date; null when the quota is closed that day. */
  capacity: number | null;
}

/** The quotas of each ticket with their capacity on `date`. Tickets without quotas are absent. */
export async function ticketQuotasOn(db: DbOrTx, ticketIds: number[], date: string): Promise<Map<number, QuotaOnDate[]>> {
  const out = new Map<number, QuotaOnDate[]>();
  if (ticketIds.length === 0) return out;
  const rows = await db
    .select({
      ticketId: ticketQuotas.ticketId,
      quotaId: quotas.id,
      kind: quotas.kind,
      base: quotas.capacity,
      overridden: quotaOverrides.quotaId,
      override: quotaOverrides.capacity,
    })
    .from(ticketQuotas)
    .innerJoin(quotas, eq(quotas.id, ticketQuotas.quotaId))
    .leftJoin(quotaOverrides, and(eq(quotaOverrides.quotaId, quotas.id), eq(quotaOverrides.date, date)))
    .where(inArray(ticketQuotas.ticketId, ticketIds))
    .orderBy(ticketQuotas.ticketId, quotas.id);
  for (const r of rows) {
    const list = out.get(r.ticketId) ?? [];
    list.push({ quotaId: r.quotaId, kind: r.kind, capacity: r.overridden === null ? r.base : r.override });
    out.set(r.ticketId, list);
  }
  return out;
}
