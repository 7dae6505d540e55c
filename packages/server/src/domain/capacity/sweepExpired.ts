// Job verb (periodic): marks expired holds and pending orders' allocations released. They stopped
// counting the instant they expired (liveAt() in db/repositories/capacityUsed.ts), so this is not
// about correctness: a claim checks a slot by its running total plus its temporary allocations
// (capacity_claim, ADR 0011), and without this every abandoned checkout would stay among those
// rows for ever, making each later claim on that slot read it again. released_at is set to the
// moment the row stopped counting (its expires_at).
//
// Safe against a finalize racing it: the conditions are on the row being updated, so when a
// finalize made the row permanent first (expires_at null), PostgreSQL re-checks them on the new
// version and leaves it alone. ctx.clock follows the database's clock (domain/clock.ts), so every
// node sweeps by the same time; the grace period only absorbs what is left of a difference.
// Running it twice changes nothing the second time.
import { releaseExpiredBatch } from '../../db/repositories/capacity.ts';
import type { Ctx } from '../context.ts';

/** Rows per statement: each batch is a short transaction of its own. */
const BATCH = 5_000;
const GRACE_MS = 5 * 60_000;

export async function sweepExpiredAllocations(ctx: Ctx): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - GRACE_MS);
  let total = 0;
  for (;;) {
    const n = await releaseExpiredBatch(ctx.db, before, BATCH);
    total += n;
    if (n < BATCH) return total;
  }
}
