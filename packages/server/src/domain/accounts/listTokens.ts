// Lists tokens with their account; never the secret, only its last 4 characters.
import { asc, eq } from 'drizzle-orm';
import { accounts, apiTokens } from '../../db/schema/index.ts';
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
  const rows = await ctx.db
    .select({
      id: apiTokens.id,
      accountId: accounts.id,
      name: accounts.name,
      class: accounts.class,
      museumIds: accounts.museumIds,
      rights: accounts.rights,
      rateLimitPerMinute: accounts.rateLimitPerMinute,
      last4: apiTokens.last4,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .innerJoin(accounts, eq(accounts.id, apiTokens.accountId))
    .orderBy(asc(apiTokens.id));
  return rows.map((r) => ({
    ...r,
    state: r.revokedAt && r.revokedAt <= now ? 'revoked' : r.expiresAt && r.expiresAt <= now ? 'expired' : 'active',
  }));
}
