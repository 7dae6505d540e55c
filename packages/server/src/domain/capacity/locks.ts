// Advisory locks serialise every write that consumes capacity of the same pool: each pool maps to
// one bigint key (a stable hash), and a transaction takes all its keys in ascending order, so two
// writers touching overlapping pools can never deadlock. The wait is bounded by lock_timeout; a
// timeout becomes CAPACITY_BUSY (422 + Retry-After) instead of a hung request.
//
// The lock order of a write that holds capacity, from first to last:
//   1. the reservations it changes or consumes (row locks, FOR UPDATE, in id order);
//   2. its account's hold lock (accountHoldsLockKey, holdLimits.ts), one per transaction;
//   3. the pools' locks, in ascending key order (here, or inside capacity_claim/order_place).
// Every writer takes what it needs in this order, so none waits for a lock held by a writer that
// waits for one of its own.
import { createHash } from 'node:crypto';
import type { Tx } from '../../db/client.ts';
import { isDbError } from '../../db/errors.ts';
import { lockKeys } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { localDateOf } from '../time.ts';

export function lockKey(...parts: Array<string | number>): bigint {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return digest.readBigInt64BE(0);
}

export const quotaLockKey = (quotaId: number, slotStart: Date) => lockKey('q', quotaId, slotStart.toISOString());
export const dateLockKey = (dateId: number) => lockKey('d', dateId);
export const tourLockKey = (tourId: number, localDate: string) => lockKey('t', tourId, localDate);
export const accountHoldsLockKey = (accountId: number) => lockKey('account-holds', accountId);

/** The lock of the pool an allocation row draws on; tours lock per local day (`zone`: the tour's). */
export function allocationLockKey(r: { resource: string; resourceId: number; slotStart: Date }, zone = 'UTC'): bigint {
  if (r.resource === 'quota') return quotaLockKey(r.resourceId, r.slotStart);
  if (r.resource === 'event_date') return dateLockKey(r.resourceId);
  return tourLockKey(r.resourceId, localDateOf(r.slotStart, zone));
}

/** Runs `work`, turning a lock wait that ran out (55P03) into CAPACITY_BUSY (422 + Retry-After). */
export async function busyOnLockTimeout<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isDbError(err, 'LOCK_NOT_AVAILABLE')) throw new DomainError('CAPACITY_BUSY', 'capacity is busy, please retry', { retryAfter: 1 });
    throw err;
  }
}

/** Lock keys in the one order every writer uses (ascending), without repeats. */
export const sortedKeys = (keys: bigint[]) => [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export async function lockSlots(tx: Tx, ctx: Ctx, keys: bigint[]): Promise<void> {
  if (ctx.testing?.disableCapacityLocks) return; // control runs only: shows what the locks prevent
  const sorted = sortedKeys(keys);
  if (sorted.length === 0) return;
  await busyOnLockTimeout(() => lockKeys(tx, sorted, `${Math.trunc(ctx.config.lockTimeoutMs)}ms`));
}
