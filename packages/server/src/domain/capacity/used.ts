// Used capacity for availability reads. The definition of "used" and its statements live in
// db/repositories/capacityUsed.ts; claims apply the same rule under the lock inside
// capacity_claim (src/db/sql/capacity_claim.sql).
import type { DbOrTx } from '../../db/client.ts';
import { liveTourRuns, usedRows, type UsedRow } from '../../db/repositories/capacityUsed.ts';
import { Coalescer } from './coalesce.ts';
import type { Resource } from './types.ts';

export const slotKey = (resourceId: number, slotStart: Date) => `${resourceId}|${slotStart.getTime()}`;

// The hottest read of the service (every availability answer): a prepared statement on the pool,
// coalesced per process (coalesce.ts).
const coalescers = new WeakMap<object, Coalescer<UsedRow[]>>();

/**
 * Used quantity per (resourceId, slotStart) for slots starting in [from, to), in one query.
 * `freeReservationIds`: holds that count as free for this caller (its own `reservations[]`).
 */
export async function usedCapacity(
  db: DbOrTx,
  now: Date,
  q: { resource: Resource; resourceIds: number[]; from: Date; to: Date; freeReservationIds?: number[] },
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (q.resourceIds.length === 0) return out;
  let runs = coalescers.get(db);
  if (!runs) coalescers.set(db, (runs = new Coalescer()));
  const ids = [...q.resourceIds].sort((a, b) => a - b);
  const free = [...(q.freeReservationIds ?? [])].sort((a, b) => a - b);
  const key = `${q.resource}|${ids.join(',')}|${q.from.getTime()}|${q.to.getTime()}|${free.join(',')}`;
  const rows = await runs.run(key, () => usedRows(db, { resource: q.resource, resourceIds: ids, from: q.from, to: q.to, now, free }));
  for (const r of rows) out.set(slotKey(r.resource_id, r.slot_start), r.used);
  return out;
}

/** Live tour runs of one tour that overlap [from, to). */
export async function tourRuns(
  db: DbOrTx,
  now: Date,
  tourId: number,
  from: Date,
  to: Date,
): Promise<Array<{ start: Date; end: Date; quantity: number }>> {
  const rows = await liveTourRuns(db, now, tourId, from, to);
  return rows.map((r) => ({ start: r.start, end: r.end ?? r.start, quantity: r.quantity }));
}

/** Most runs running at the same moment inside [from, to), given the runs that overlap it. */
export function peakConcurrency(runs: Array<{ start: Date; end: Date; quantity: number }>, from: Date, to: Date): number {
  // Concurrency only rises at a run's start, so the peak is at `from` or at some run start inside.
  const points = [from.getTime(), ...runs.map((r) => r.start.getTime()).filter((t) => t > from.getTime() && t < to.getTime())];
  let peak = 0;
  for (const p of points) {
    let n = 0;
    for (const r of runs) if (r.start.getTime() <= p && r.end.getTime() > p) n += r.quantity;
    peak = Math.max(peak, n);
  }
  return peak;
}
