// Job verb (periodic): wipes the bytes of documents past their retention and marks them
// expired. Downloads already answer 410 from the moment available_until passes (statusAt), so
// this is storage hygiene, not correctness; running it twice changes nothing the second time.
import { purgeExpired } from '../../db/repositories/documents/documents.ts';
import type { Ctx } from '../context.ts';

export async function purgeExpiredDocuments(ctx: Ctx): Promise<number> {
  // A rejected upload stays "rejected" (its bytes are already gone); the rest become "expired".
  return purgeExpired(ctx.db, ctx.clock.now());
}
