// Revokes a token at once (spec 5.7: a suspected leak is revoked immediately).
import { and, eq, isNull } from 'drizzle-orm';
import { apiTokens } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';

export async function revokeToken(ctx: Pick<Ctx, 'db' | 'clock'>, input: { tokenId: number }): Promise<void> {
  const now = ctx.clock.now();
  const found = await ctx.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.id, input.tokenId));
  if (found.length === 0) throw notFound('token');
  await ctx.db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, input.tokenId), isNull(apiTokens.revokedAt)));
}
