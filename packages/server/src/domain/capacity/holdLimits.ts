// Per-account limits on capacity held without a sale (ADR 0016; docs/operations.md "Limits and
// their settings"). One reseller had held a whole day's seats with a few reservations and kept
// renewing them. Live holds and pending orders of one account:
// - at most ATRIUM_HOLD_LIMIT_COUNT of them at a time (0 = no count limit), and
// - at most ATRIUM_HOLD_LIMIT_SHARE percent of any pool's capacity for its slot or day (the unit
//   of the quota: a time-slot quota's slot, a day quota's day, an event date; 100 = off).
// Finalized orders are sales, not holds, and are never limited here; staff (`user` tokens) are
// not limited either (box-office group bookings). Called by createReservation, updateReservation
// (growth) and createOrder (pending orders) inside the transaction that claims: ONE rule for all.
//
// Concurrency: the check reads the account's holds, and the claim adds one. Two requests of one
// account that both read before either claimed would both pass, and a burst of them could take
// a whole slot. So the check takes the account's hold lock first (a transaction-level advisory
// lock, accountHoldsLockKey) and keeps it until the claim commits: requests of one account that
// hold capacity run their check and claim one after the other, on any number of nodes. Other
// accounts are not held up. Lock order: see locks.ts (reservation rows, then this lock, then the
// pools' locks).
import type { Tx } from '../../db/client.ts';
import { heldByAccount, lockKey } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { accountHoldsLockKey, busyOnLockTimeout } from './locks.ts';
import type { ResolvedClaim } from './types.ts';

export interface HoldLimitOptions {
  /** Holds this request replaces (an order consuming them, a hold being resized). */
  exceptReservationTokens?: string[];
}

const limited = (message: string) => new DomainError('HOLD_LIMIT_EXCEEDED', message);

/** The account whose holds are limited for this caller, or null when no limit applies. */
export function limitedAccount(ctx: Ctx): number | null {
  const p = ctx.principal;
  // The shop's account is shared by every visitor: the shop limits each visitor (src/http/shop).
  if (p.kind !== 'account' || p.access === 'user' || p.access === 'shop') return null;
  const { holdLimitCount: maxCount, holdLimitShare: share } = ctx.config;
  if (maxCount <= 0 && share >= 100) return null;
  return p.accountId;
}

/**
 * Refuses the claims when they would take the caller's account past its limits. `tx` must be
 * the transaction that then claims: the account's hold lock taken here lasts until its commit.
 */
export async function checkHoldLimits(tx: Tx, ctx: Ctx, claims: ResolvedClaim[], opts: HoldLimitOptions = {}): Promise<void> {
  const accountId = limitedAccount(ctx);
  if (accountId === null) return;
  const { holdLimitCount: maxCount, holdLimitShare: share } = ctx.config;
  // The control run of the concurrency test switches the lock off to show what it prevents.
  if (!ctx.testing?.disableHoldLimitLock) await busyOnLockTimeout(() => lockKey(tx, accountHoldsLockKey(accountId)));
  const except = opts.exceptReservationTokens ?? [];
  const rows = await heldByAccount(tx, accountId, ctx.clock.now(), except);
  // A new reservation or pending order is one more holder; resizing a hold (its token in
  // `except`) replaces one.
  if (maxCount > 0 && except.length === 0) {
    const holders = new Set(rows.flatMap((r) => r.holders));
    if (holders.size + 1 > maxCount) {
      throw limited(`this account already has ${holders.size} live reservations and pending orders (at most ${maxCount}); use or release some first`);
    }
  }
  if (share >= 100) return;
  const heldIn = new Map(rows.map((r) => [`${r.resource}|${r.resource_id}|${new Date(r.slot_start).getTime()}`, r.held]));
  for (const claim of claims) {
    for (const d of claim.demands) {
      if (d.resource === 'tour') continue;
      const allowed = Math.floor((d.capacity * share) / 100);
      const held = heldIn.get(`${d.resource}|${d.resourceId}|${d.slotStart.getTime()}`) ?? 0;
      if (held + d.quantity > allowed) {
        throw limited(
          `one account may hold at most ${share}% of a slot's capacity (${allowed} of ${d.capacity}) in reservations and pending orders; this account holds ${held}`,
        );
      }
    }
  }
}
