// Per-account limits on capacity held without a sale (issue #14 defect 6; ADR 0016;
// docs/operations.md "Limits and their settings"). One reseller had held a whole day's 400 seats
// with ten reservations and kept renewing them. Live holds and pending orders of one account:
// - at most ATRIUM_HOLD_LIMIT_COUNT of them at a time (0 = no count limit), and
// - at most ATRIUM_HOLD_LIMIT_SHARE percent of any pool's capacity for its slot or day (the unit
//   of the quota: a time-slot quota's slot, a day quota's day, an event date; 100 = off).
// Finalized orders are sales, not holds, and are never limited here; staff (`user` tokens) are
// not limited either (box-office group bookings). Called by createReservation, updateReservation
// (growth) and createOrder (pending orders) before their write: ONE rule for all of them.
//
// The check reads the account's live temporary allocations outside the claim's lock, so two
// concurrent requests of one account may both pass: the limit can be overshot by at most one
// request's quantity per concurrent request, which bounds hoarding without slowing the claim.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { ResolvedClaim } from './types.ts';

type HeldRow = {
  resource: string;
  resource_id: number;
  slot_start: Date;
  held: number;
  /** The reservations ('r<id>') and pending orders ('o<id>') holding in this pool and slot. */
  holders: string[];
};

export interface HoldLimitOptions {
  /** Holds this request replaces (an order consuming them, a hold being resized). */
  exceptReservationTokens?: string[];
}

const limited = (message: string) => new DomainError('HOLD_LIMIT_EXCEEDED', message);

export async function checkHoldLimits(db: DbOrTx, ctx: Ctx, claims: ResolvedClaim[], opts: HoldLimitOptions = {}): Promise<void> {
  const p = ctx.principal;
  if (p.kind !== 'account' || p.access === 'user') return;
  const { holdLimitCount: maxCount, holdLimitShare: share } = ctx.config;
  if (maxCount <= 0 && share >= 100) return;
  const now = ctx.clock.now();
  const except = opts.exceptReservationTokens ?? [];
  // The account's live holds and pending orders per pool and slot: temporary allocations
  // (expires_at set) not released and not expired, by reservation or by pending order item.
  const res = await db.execute<HeldRow>(sql`
    select ca.resource, ca.resource_id, ca.slot_start, sum(ca.quantity)::int as held,
           array_agg(distinct coalesce('r' || ca.reservation_id::text, 'o' || oi.order_id::text)) as holders
      from capacity_allocations ca
      left join reservations r on r.id = ca.reservation_id
      left join order_items oi on oi.id = ca.order_item_id
      left join orders o on o.id = oi.order_id
     where ca.released_at is null and ca.expires_at is not null and ca.expires_at > ${now}
       and (r.account_id = ${p.accountId} or o.account_id = ${p.accountId})
       and (r.token is null or r.token not in (select jsonb_array_elements_text(${JSON.stringify(except)}::jsonb)))
     group by ca.resource, ca.resource_id, ca.slot_start`);
  // A new reservation or pending order is one more holder; resizing a hold (its token in
  // `except`) replaces one.
  if (maxCount > 0 && except.length === 0) {
    const holders = new Set(res.rows.flatMap((r) => r.holders));
    if (holders.size + 1 > maxCount) {
      throw limited(`this account already has ${holders.size} live reservations and pending orders (at most ${maxCount}); use or release some first`);
    }
  }
  if (share >= 100) return;
  const heldIn = new Map(res.rows.map((r) => [`${r.resource}|${r.resource_id}|${new Date(r.slot_start).getTime()}`, r.held]));
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
