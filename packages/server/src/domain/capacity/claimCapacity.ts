// The only way capacity is consumed. Two steps:
//   1. resolveClaims: check every claim against the catalogue and turn it into the pools it draws
//      on (validation errors before any lock; catalogue rows from the process memo);
//   2. claimResolved: in ONE round trip (SQL function capacity_claim,
//      src/db/sql/capacity_claim.sql) lock every affected pool in ascending key order (no
//      deadlocks between writers), release the holds being converted, re-read what is used and
//      insert the allocations — or insert nothing and name the demand that does not fit.
// Everything from reading what is used to inserting runs under the locks, so two writers can
// never both see the last places as free. The function exists because the lock is held for
// exactly its duration plus the commit: every round trip inside it was time a hot slot stood
// still (ADR 0009).
import type { DbOrTx, Tx } from '../../db/client.ts';
import { dbError } from '../../db/errors.ts';
import { claimSlots } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { closed } from '../schedules/rule.ts';
import { busyOnLockTimeout, sortedKeys } from './locks.ts';
import { resolveClaim } from './resolve.ts';
import type { Claim, Holder, ResolvedClaim } from './types.ts';

const soldOut = () => new DomainError('SLOT_SOLD_OUT', 'not enough capacity left for this slot');

/** Checks claims against the catalogue; `db` is the caller's handle (transaction or pool). */
export async function resolveClaims(db: DbOrTx, ctx: Ctx, claims: Claim[]): Promise<ResolvedClaim[]> {
  const now = ctx.clock.now();
  const resolved: ResolvedClaim[] = [];
  for (const c of claims) {
    const r = await resolveClaim(ctx, db, now, c);
    for (const d of r.demands) {
      if (d.quantity > d.capacity) {
        throw new DomainError('QUANTITY_ABOVE_CAPACITY', `quantity ${d.quantity} exceeds the capacity of ${d.capacity}`);
      }
    }
    resolved.push(r);
  }
  return resolved;
}

/** Claims resolved demands for their holders (same order), all or nothing. */
async function claimResolved(
  tx: Tx,
  ctx: Ctx,
  resolved: ResolvedClaim[],
  holders: Array<{ holder: Holder; expiresAt: Date | null }>,
  opts: { releaseReservationIds?: number[] } = {},
): Promise<void> {
  const spec = claimSpec(ctx, resolved, null, opts.releaseReservationIds ?? []);
  if (spec.demands.length === 0 && spec.release.length === 0) return;
  const col = <T>(f: (d: (typeof spec.demands)[number], h: (typeof holders)[number]) => T) => spec.demands.map((d) => f(d, holders[d.item - 1]!));
  const fit = await claimErrors(() =>
    claimSlots(tx, {
      keys: spec.keys,
      lockTimeout: spec.lock_timeout,
      now: spec.now,
      release: spec.release,
      resource: col((d) => d.resource),
      resourceId: col((d) => d.resource_id),
      slotStart: col((d) => d.slot_start),
      slotEnd: col((d) => d.slot_end),
      quantity: col((d) => d.quantity),
      capacity: col((d) => d.capacity),
      reservationId: col((_, h) => ('reservationId' in h.holder ? h.holder.reservationId : null)),
      orderItemId: col((_, h) => ('orderItemId' in h.holder ? h.holder.orderItemId : null)),
      expiresAt: col((_, h) => h.expiresAt?.toISOString() ?? null),
      raceWindowMs: spec.race_window_ms,
    }),
  );
  if (!fit) throw soldOut();
}

/**
 * The claim as data for SQL functions that claim inside a larger write (order_place,
 * src/db/sql/order_place.sql; reservation_place, src/db/sql/reservation_place.sql): the same
 * lock keys, timeout, demands and control-run switch as claimResolved. `item` is the 1-based
 * index of the holder (the order item) among that write's rows.
 */
export function claimSpec(ctx: Ctx, resolved: ResolvedClaim[], expiresAt: Date | null, releaseReservationIds: number[]) {
  const off = ctx.testing?.disableCapacityLocks === true;
  return {
    keys: sortedKeys(resolved.flatMap((r) => r.demands.map((d) => d.lockKey))).map(String),
    lock_timeout: off ? null : `${Math.trunc(ctx.config.lockTimeoutMs)}ms`,
    now: ctx.clock.now().toISOString(),
    release: releaseReservationIds,
    expires_at: expiresAt?.toISOString() ?? null,
    // Control runs hold the gap between the check and the write open long enough that parallel
    // claims overlap even on a loaded machine: their oversell must not depend on timing luck.
    race_window_ms: off ? 50 : 0,
    demands: resolved.flatMap((r, i) =>
      r.demands.map((d) => ({
        item: i + 1,
        resource: d.resource,
        resource_id: d.resourceId,
        slot_start: d.slotStart.toISOString(),
        slot_end: d.slotEnd?.toISOString() ?? null,
        quantity: d.quantity,
        capacity: d.capacity,
      })),
    ),
  };
}

/** Turns the SQL functions' refusals (SOLD_OUT, CLOSED) and lock timeouts into domain errors. */
export async function claimErrors<T>(work: () => Promise<T>): Promise<T> {
  return busyOnLockTimeout(async () => {
    try {
      return await work();
    } catch (err) {
      const e = dbError(err);
      if (e?.kind === 'SOLD_OUT') throw soldOut();
      // The schedule race guard: a closure committed after the rule was checked.
      if (e?.kind === 'CLOSED') throw closed(e.message || 'closed');
      throw err;
    }
  });
}

/** resolveClaims + claimResolved, for callers with nothing to do in between. */
export async function claimCapacity(
  tx: Tx,
  ctx: Ctx,
  claims: Array<{ claim: Claim; holder: Holder; expiresAt: Date | null }>,
  opts: { releaseReservationIds?: number[] } = {},
): Promise<Array<{ museumId: number; startAt: Date; endAt: Date }>> {
  const resolved = await resolveClaims(tx, ctx, claims.map((c) => c.claim));
  await claimResolved(tx, ctx, resolved, claims, opts);
  return resolved.map((r) => ({ museumId: r.museumId, startAt: r.startAt, endAt: r.endAt }));
}
