// Job verb (periodic): wipes the bytes of documents past their retention and marks them
// expired. Downloads already answer 410 from the moment available_until passes (statusAt), so
// this is storage hygiene, not correctness; running it twice changes nothing the second time.
import { and, isNull, lte, sql } from 'drizzle-orm';
import { documents } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';

export async function purgeExpiredDocuments(ctx: Ctx): Promise<number> {
  const now = ctx.clock.now();
  const purged = await ctx.db
    .update(documents)
    .set({
      content: null,
      // A rejected upload stays "rejected" (its bytes are already gone).
      status: sql`case when ${documents.status} = 'rejected' then 'rejected' else 'expired' end`,
      purgedAt: now,
      updatedAt: now,
    })
    .where(and(isNull(documents.purgedAt), lte(documents.availableUntil, now)))
    .returning({ id: documents.id });
  return purged.length;
}
