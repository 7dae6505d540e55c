// Housekeeping for a periodic job: expired keys already count as absent (claims overwrite them),
// so deleting them only reclaims space.
import { deleteExpiredKeys } from '../../db/repositories/idempotency.ts';
import type { Ctx } from '../context.ts';

export function purgeIdempotencyKeys(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredKeys(ctx.db, ctx.clock.now());
}
