// Housekeeping for a periodic job: expired keys already count as absent (claims overwrite them),
// so deleting them only reclaims space.
import { lte } from 'drizzle-orm';
import { idempotencyKeys } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';

export async function purgeIdempotencyKeys(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<number> {
  const gone = await ctx.db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, ctx.clock.now()))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
