// The only way capacity is consumed. Two steps:
//   1. resolveClaims: check every claim against the catalogue and turn it into the pools it draws
//      on (validation errors before any lock; catalogue rows from the process memo);
//   2. claimResolved: in ONE round trip (SQL function capacity_claim,
//      src/db/sql/capacity_claim.sql) lock every affected pool in ascending key order (no deadlocks
//      between writers), release the holds being converted, re-read what is used and insert the
//      allocations — or insert nothing and name the demand that does not fit.
// Everything from reading what is used to inserting runs under the locks, so two writers can
// never both see the last places as free. The function exists because the lock is held for
// exactly its duration plus the commit: every round trip inside it was time a hot slot stood
// still (bench/README.md, "Booking"; ADR 0009).
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
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
export async function claimResolved(
  tx: Tx,
  ctx: Ctx,
  resolved: ResolvedClaim[],
  holders: Array<{ holder: Holder; expiresAt: Date | null }>,
  opts: { releaseReservationIds?: number[] } = {},
): Promise<void> {
  const spec = claimSpec(ctx, resolved, null, opts.releaseReservationIds ?? []);
  if (spec.demands.length === 0 && spec.release.length === 0) return;
  // Arrays go as one parameter each (sql.param): a bare array would become a list of parameters.
  const col = <T>(f: (d: (typeof spec.demands)[number], h: (typeof holders)[number]) => T) =>
    sql.param(spec.demands.map((d) => f(d, holders[d.item - 1]!)));
  const result = await claimErrors(() =>
    tx.execute<{ failed: number }>(sql`select capacity_claim(
      ${sql.param(spec.keys)}::bigint[],
      ${spec.lock_timeout}::text,
      ${spec.now}::timestamptz,
      ${sql.param(spec.release)}::bigint[],
      ${col((d) => d.resource)}::text[],
      ${col((d) => d.resource_id)}::integer[],
      ${col((d) => d.slot_start)}::timestamptz[],
      ${col((d) => d.slot_end)}::timestamptz[],
      ${col((d) => d.quantity)}::integer[],
      ${col((d) => d.capacity)}::integer[],
      ${col((_, h) => ('reservationId' in h.holder ? h.holder.reservationId : null))}::bigint[],
      ${col((_, h) => ('orderItemId' in h.holder ? h.holder.orderItemId : null))}::bigint[],
      ${col((_, h) => h.expiresAt?.toISOString() ?? null)}::timestamptz[],
      ${spec.race_window_ms}::integer
    ) as failed`),
  );
  if (Number(result.rows[0]?.failed ?? 0) !== 0) throw soldOut();
}

/**
 * The claim as data for SQL functions that claim inside a larger write (order_place,
 * src/db/sql/order_place.sql): the same lock keys, timeout, demands and control-run switch as
 * claimResolved. `item` is the 1-based index of the holder (the order item) among that write's
 * rows.
 */
export function claimSpec(ctx: Ctx, resolved: ResolvedClaim[], expiresAt: Date | null, releaseReservationIds: number[]) {
  const off = ctx.testing?.disableCapacityLocks === true;
  return {
    keys: sortedKeys(resolved.flatMap((r) => r.demands.map((d) => d.lockKey))).map(String),
    lock_timeout: off ? null : `${Math.trunc(ctx.config.lockTimeoutMs)}ms`,
    now: ctx.clock.now().toISOString(),
    release: releaseReservationIds,
    expires_at: expiresAt?.toISOString() ?? null,
    race_window_ms: off ? 5 : 0,
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

/** Turns the SQL functions' refusal (SQLSTATE AT001) and lock timeouts into domain errors. */
export async function claimErrors<T>(work: () => Promise<T>): Promise<T> {
  return busyOnLockTimeout(async () => {
    try {
      return await work();
    } catch (err) {
      for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
        if ((e as { code?: string }).code === 'AT001') throw soldOut();
        // The schedule race guard (migration 0012): a closure committed after the rule was checked.
        if ((e as { code?: string }).code === 'AT003') throw closed((e as { message?: string }).message ?? 'closed');
      }
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
