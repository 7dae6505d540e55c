// Quota capacity on a date: a per-date override wins (null = closed), else the quota's own.
// Shared by claims and availability reads.
import type { DbOrTx } from '../../db/client.ts';
import { quotaLinksOf, quotaOverridesOn, quotaSlotOverridesBetween } from '../../db/repositories/capacityCatalog.ts';
import { masterData, type Ctx } from '../context.ts';

export interface QuotaOnDate {
  quotaId: number;
  kind: string;
  /** Capacity per slot (or per day) on the date; null when the quota is closed that day. */
  capacity: number | null;
  /** Per-slot overrides (slot start ms → capacity) of the quota around the dates asked for. */
  slots?: ReadonlyMap<number, number>;
}

/** Capacity of one quota slot: a per-slot override wins over the date's (schedules, 0012). */
export function capacityAt(q: QuotaOnDate, key: Date): number {
  return q.slots?.get(key.getTime()) ?? q.capacity ?? 0;
}

/**
 * The quotas of each ticket with their capacity on each of `dates` (two queries whatever the
 * number of dates, none when the process memo has them): date → ticket id → quotas. Tickets
 * without quotas are absent (unlimited). The result is shared: never mutate it.
 */
export function ticketQuotasOnDates(
  ctx: Pick<Ctx, 'masterData'>,
  db: DbOrTx,
  ticketIds: number[],
  dates: string[],
): Promise<Map<string, Map<number, QuotaOnDate[]>>> {
  const key = `quotas:${[...ticketIds].sort((a, b) => a - b).join(',')}@${[...dates].sort().join(',')}`;
  return masterData(ctx, key, () => readTicketQuotas(db, ticketIds, dates));
}

async function readTicketQuotas(db: DbOrTx, ticketIds: number[], dates: string[]): Promise<Map<string, Map<number, QuotaOnDate[]>>> {
  const out = new Map<string, Map<number, QuotaOnDate[]>>(dates.map((d) => [d, new Map()]));
  if (ticketIds.length === 0 || dates.length === 0) return out;
  const links = await quotaLinksOf(db, ticketIds);
  const quotaIds = [...new Set(links.map((l) => l.quotaId))];
  const overrides = quotaIds.length ? await quotaOverridesOn(db, quotaIds, dates) : [];
  const byKey = new Map(overrides.map((o) => [`${o.quotaId}|${o.date}`, o.capacity]));
  const perSlot = await slotOverrides(db, quotaIds, dates);
  for (const date of dates) {
    const perTicket = out.get(date)!;
    for (const l of links) {
      const key = `${l.quotaId}|${date}`;
      const capacity = byKey.has(key) ? byKey.get(key)! : l.capacity;
      const list = perTicket.get(l.ticketId) ?? [];
      const slots = perSlot.get(l.quotaId);
      list.push({ quotaId: l.quotaId, kind: l.kind, capacity, ...(slots ? { slots } : {}) });
      perTicket.set(l.ticketId, list);
    }
  }
  return out;
}

export async function ticketQuotasOn(
  ctx: Pick<Ctx, 'masterData'>,
  db: DbOrTx,
  ticketIds: number[],
  date: string,
): Promise<Map<number, QuotaOnDate[]>> {
  return (await ticketQuotasOnDates(ctx, db, ticketIds, [date])).get(date)!;
}

/** Per-slot overrides of `quotaIds` within a day of the dates (keys are exact slot instants). */
async function slotOverrides(db: DbOrTx, quotaIds: number[], dates: string[]): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  if (quotaIds.length === 0 || dates.length === 0) return out;
  const sorted = [...dates].sort();
  const from = new Date(Date.parse(`${sorted[0]}T00:00:00Z`) - 86_400_000);
  const to = new Date(Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`) + 2 * 86_400_000);
  const rows = await quotaSlotOverridesBetween(db, quotaIds, from, to);
  for (const r of rows) {
    const m = out.get(r.quotaId) ?? new Map<number, number>();
    m.set(r.slotStart.getTime(), r.capacity);
    out.set(r.quotaId, m);
  }
  return out;
}
