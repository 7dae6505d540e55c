// Job verb (periodic): marks expired holds and pending orders' allocations released. They stopped
// counting the instant they expired (liveAt() in used.ts), so this is not about correctness: a
// claim checks a slot by its running total plus its temporary allocations (capacity_claim, ADR
// 0011), and without this every abandoned checkout would stay among those rows for ever, making
// each later claim on that slot read it again. released_at is set to the moment the row stopped
// counting (its expires_at).
//
// Safe against a finalize racing it: the conditions are on the row being updated, so when a
// finalize made the row permanent first (expires_at null), PostgreSQL re-checks them on the new
// version and leaves it alone. A grace period keeps clock differences between nodes out of it.
// Running it twice changes nothing the second time.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';

/** Rows per statement: each batch is a short transaction of its own. */
const BATCH = 5_000;
const GRACE_MS = 5 * 60_000;

export async function sweepExpiredAllocations(ctx: Ctx): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - GRACE_MS);
  let total = 0;
  for (;;) {
    const r = await ctx.db.execute(sql`
      update capacity_allocations set released_at = expires_at
       where released_at is null and expires_at is not null and expires_at <= ${before}
         and id in (select id from capacity_allocations
                     where released_at is null and expires_at is not null and expires_at <= ${before}
                     limit ${BATCH})`);
    total += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < BATCH) return total;
  }
}
