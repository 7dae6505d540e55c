// PUT /quotas/:id/capacities (docs/api-contract.md §13): capacity overrides per date (quota_overrides, as PUT
// /quotas/:id/overrides/:date) and per slot (quota_slot_overrides, migration 0012), several at
// once. Lowering below what is already sold is allowed: nothing is cancelled, the answer says by
// how much each entry is oversold so staff can act. The claim path reads both kinds of override
// through capacity/quotas.ts (capacityAt), the only place that resolves a slot's capacity.
import type { Db, DbOrTx } from '../../db/client.ts';
import { upsertQuotaOverride } from '../../db/repositories/catalog/quotas.ts';
import { museumZone, slotOverridesIn, upsertSlotCapacity } from '../../db/repositories/schedules/hours.ts';
import { transaction } from '../../db/transaction.ts';
import { usedCapacity } from '../capacity/used.ts';
import { slotKey } from '../capacity/used.ts';
import type { Ctx } from '../context.ts';
import { assertStaff, failIfAny } from '../catalog/writeSupport.ts';
import { writableQuota } from '../catalog/quotaWrite.ts';
import { addDays, isValidDate, startOfLocalDay, zonedInstant } from '../time.ts';
import { clock, parseClock } from './closureInput.ts';

export interface CapacityEntry {
  date?: string;
  time?: string | null;
  capacity?: number;
}

export interface CapacityAnswer {
  date: string;
  time: string | null;
  capacity: number;
  sold: number;
  oversold_by: number;
}

const MAX_ENTRIES = 1000;

export async function setCapacities(ctx: Ctx, input: { id: number; capacities: CapacityEntry[] }): Promise<{ quota_id: number; capacities: CapacityAnswer[] }> {
  return capacitiesAnswer(ctx, await writeCapacities(ctx, input));
}

export type WrittenCapacities = Awaited<ReturnType<typeof writeCapacities>>;

/**
 * The write half of setCapacities, on its own so the console can run it inside its audit
 * transaction (domain/audit/audited.ts); the answer (what is oversold) reads through the pool
 * (capacity/used.ts) and so comes after the commit: capacitiesAnswer.
 */
export async function writeCapacities(ctx: Ctx, input: { id: number; capacities: CapacityEntry[] }) {
  assertStaff(ctx);
  return transaction(ctx.db, async (tx) => {
    const q = await writableQuota(ctx, tx, input.id);
    const zone = (await museumZone(tx, q.museumId))!;
    const problems: string[] = [];
    if (!Array.isArray(input.capacities) || input.capacities.length === 0) problems.push('capacities must list at least one {date, time?, capacity}');
    else if (input.capacities.length > MAX_ENTRIES) problems.push(`capacities: at most ${MAX_ENTRIES} entries`);
    const seen = new Set<string>();
    const entries = (input.capacities ?? []).map((e, i) => {
      const f = `capacities[${i}]`;
      if (typeof e.date !== 'string' || !isValidDate(e.date)) problems.push(`${f}.date must be a date (YYYY-MM-DD)`);
      let minutes: number | null = null;
      if (e.time !== undefined && e.time !== null) {
        const t = parseClock(e.time);
        if (t === undefined || t >= 1440) problems.push(`${f}.time must be a time from 00:00 to 23:59 (HH:MM)`);
        else if (q.kind === 'day') problems.push(`${f}.time: quota ${q.id} counts per day; give no time`);
        else minutes = t;
      }
      if (typeof e.capacity !== 'number' || !Number.isInteger(e.capacity) || e.capacity < 0 || e.capacity > 1_000_000) {
        problems.push(`${f}.capacity must be a whole number from 0 to 1000000`);
      }
      const key = `${e.date}|${minutes}`;
      if (seen.has(key)) problems.push(`${f} repeats ${e.date}${minutes === null ? '' : ` ${e.time}`}`);
      seen.add(key);
      return { date: e.date!, minutes, capacity: e.capacity! };
    });
    failIfAny('capacities', problems);
    for (const e of entries) {
      if (e.minutes === null) {
        await upsertQuotaOverride(tx, q.id, e.date, e.capacity);
      } else {
        await setSlotCapacity(tx, q.id, zonedInstant(e.date, e.minutes, zone), e.capacity);
      }
    }
    return { quota: q, zone, entries };
  });
}

/** The answer to written overrides: per entry what is sold and by how much it is oversold. */
export async function capacitiesAnswer(ctx: Ctx, written: WrittenCapacities): Promise<{ quota_id: number; capacities: CapacityAnswer[] }> {
  return { quota_id: written.quota.id, capacities: await oversold(ctx, written.quota.id, written.quota.kind, written.zone, written.entries) };
}

/** Sets the capacity of one slot of a quota (also used by the demo seed). */
export async function setSlotCapacity(db: DbOrTx, quotaId: number, slotStart: Date, capacity: number): Promise<void> {
  await upsertSlotCapacity(db, quotaId, slotStart, capacity);
}

/** What is used now in the pools each entry sets, and by how much that exceeds the new capacity. */
async function oversold(ctx: Ctx, quotaId: number, kind: string, zone: string, entries: Array<{ date: string; minutes: number | null; capacity: number }>): Promise<CapacityAnswer[]> {
  const dates = [...new Set(entries.map((e) => e.date))].sort();
  const from = startOfLocalDay(dates[0]!, zone);
  const to = startOfLocalDay(addDays(dates[dates.length - 1]!, 1), zone);
  const used = await usedCapacity(ctx.db as Db, ctx.clock.now(), { resource: 'quota', resourceIds: [quotaId], from, to });
  // Slots with their own override are not governed by a per-date entry.
  const slotOverrides = await slotOverridesIn(ctx.db, quotaId, from, to);
  const prefix = `${quotaId}|`;
  return entries.map((e) => {
    let sold = 0;
    if (e.minutes !== null) sold = used.get(slotKey(quotaId, zonedInstant(e.date, e.minutes, zone))) ?? 0;
    else if (kind === 'day') sold = used.get(slotKey(quotaId, startOfLocalDay(e.date, zone))) ?? 0;
    else {
      const dayFrom = startOfLocalDay(e.date, zone).getTime();
      const dayTo = startOfLocalDay(addDays(e.date, 1), zone).getTime();
      for (const [k, n] of used) {
        const at = Number(k.slice(prefix.length));
        if (at >= dayFrom && at < dayTo && !slotOverrides.has(at)) sold = Math.max(sold, n);
      }
    }
    return { date: e.date, time: clock(e.minutes), capacity: e.capacity, sold, oversold_by: Math.max(0, sold - e.capacity) };
  });
}

