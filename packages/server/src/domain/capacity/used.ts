// THE definition of used capacity (docs/api-contract.md §5): a capacity_allocations row counts while it is not
// released and either permanent (expires_at null) or not yet expired at `now`. Holds stop counting
// the instant they expire, so no cleanup job is needed for correctness. Availability reads use
// liveAt() below; claims run the same condition under the lock inside the SQL function
// capacity_claim (src/db/sql/capacity_claim.sql; ADRs 0009, 0011), where the permanent part comes
// from the running total in capacity_totals. A change here must be made there too.
import { and, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { capacityAllocations as ca } from '../../db/schema/index.ts';
import { Coalescer } from './coalesce.ts';
import type { Resource } from './types.ts';

/** `now`: the instant, or a placeholder for it in a statement rendered once. */
export function liveAt(now: Date | SQL): SQL {
  return and(isNull(ca.releasedAt), or(isNull(ca.expiresAt), gt(ca.expiresAt, now)))!;
}

export const slotKey = (resourceId: number, slotStart: Date) => `${resourceId}|${slotStart.getTime()}`;

// The hottest read of the service (every availability answer): a named prepared statement on
// the pool (parsed and planned once per connection, no query building per call), coalesced per
// process (coalesce.ts). The condition is liveAt() below, written out.
const USED_SQL = `select resource_id, slot_start, sum(quantity)::int as used
  from capacity_allocations
 where resource = $1 and resource_id = any($2::int[]) and slot_start >= $3 and slot_start < $4
   and released_at is null and (expires_at is null or expires_at > $5)
   and (reservation_id is null or not (reservation_id = any($6::bigint[])))
 group by resource_id, slot_start`;

type UsedRow = { resource_id: number; slot_start: Date; used: number };
const coalescers = new WeakMap<object, Coalescer<UsedRow[]>>();

/**
 * Used quantity per (resourceId, slotStart) for slots starting in [from, to), in one query.
 * `freeReservationIds`: holds that count as free for this caller (its own `reservations[]`).
 */
export async function usedCapacity(
  db: Db,
  now: Date,
  q: { resource: Resource; resourceIds: number[]; from: Date; to: Date; freeReservationIds?: number[] },
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (q.resourceIds.length === 0) return out;
  const pool = db.$client;
  let runs = coalescers.get(pool);
  if (!runs) coalescers.set(pool, (runs = new Coalescer()));
  const ids = [...q.resourceIds].sort((a, b) => a - b);
  const free = [...(q.freeReservationIds ?? [])].sort((a, b) => a - b);
  const key = `${q.resource}|${ids.join(',')}|${q.from.getTime()}|${q.to.getTime()}|${free.join(',')}`;
  const rows = await runs.run(key, async () => {
    const r = await pool.query<UsedRow>({ name: 'atrium_used_capacity', text: USED_SQL, values: [q.resource, ids, q.from, q.to, now, free] });
    return r.rows;
  });
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
  const rows = await db
    .select({ start: ca.slotStart, end: ca.slotEnd, quantity: ca.quantity })
    .from(ca)
    .where(and(eq(ca.resource, 'tour'), eq(ca.resourceId, tourId), lt(ca.slotStart, to), gt(ca.slotEnd, from), liveAt(now)));
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
