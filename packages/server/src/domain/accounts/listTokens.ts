// Lists tokens with their account; never the secret, only its last 4 characters.
import { tokensWithAccounts } from '../../db/repositories/accounts.ts';
import type { Ctx } from '../context.ts';

export interface TokenListing {
  id: number;
  accountId: number;
  name: string;
  class: string;
  museumIds: number[];
  rights: string[];
  rateLimitPerMinute: number | null;
  last4: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  state: 'active' | 'expired' | 'revoked';
}

export async function listTokens(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<TokenListing[]> {
  const now = ctx.clock.now();
  const rows = await tokensWithAccounts(ctx.db);
  return rows.map((r) => ({
    ...r,
    state: r.revokedAt && r.revokedAt <= now ? 'revoked' : r.expiresAt && r.expiresAt <= now ? 'expired' : 'active',
  }));
}
