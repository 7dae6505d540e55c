// Revokes a token at once (spec 5.7: a suspected leak is revoked immediately).
import { endToken, tokenById } from '../../db/repositories/accounts.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';

export async function revokeToken(ctx: Pick<Ctx, 'db' | 'clock'>, input: { tokenId: number }): Promise<void> {
  const now = ctx.clock.now();
  if (!(await tokenById(ctx.db, input.tokenId))) throw notFound('token');
  await endToken(ctx.db, input.tokenId, now);
}
