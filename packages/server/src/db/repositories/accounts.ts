// Statements of partner accounts and their API tokens. Tokens are stored as hashes only.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { accounts, apiTokens } from '../schema/index.ts';

export type AccountRow = typeof accounts.$inferSelect;
export type TokenRow = typeof apiTokens.$inferSelect;

/** The instance id written by the migrations, or null before `atrium migrate`. */
export async function instanceIdOf(db: DbOrTx): Promise<string | null> {
  const res = await db.execute<{ instance_id: string }>(sql`select instance_id from instance where id = 1`);
  return res.rows[0]?.instance_id ?? null;
}

export async function insertAccount(db: DbOrTx, values: typeof accounts.$inferInsert): Promise<number> {
  const [row] = await db.insert(accounts).values(values).returning({ id: accounts.id });
  return row!.id;
}

export async function insertToken(db: DbOrTx, values: typeof apiTokens.$inferInsert): Promise<number> {
  const [row] = await db.insert(apiTokens).values(values).returning({ id: apiTokens.id });
  return row!.id;
}

/** Every token with its account, token id ascending; never the hash. */
export async function tokensWithAccounts(db: DbOrTx) {
  return db
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
}

/** The token with this hash and its account, for authentication. */
export async function tokenByHash(db: DbOrTx, hash: string) {
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      tokenHash: apiTokens.tokenHash,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      accountId: accounts.id,
      name: accounts.name,
      class: accounts.class,
      museumIds: accounts.museumIds,
      rights: accounts.rights,
      rateLimit: accounts.rateLimitPerMinute,
      disabledAt: accounts.disabledAt,
    })
    .from(apiTokens)
    .innerJoin(accounts, eq(accounts.id, apiTokens.accountId))
    .where(eq(apiTokens.tokenHash, hash))
    .limit(1);
  return row ?? null;
}

export async function tokenById(db: DbOrTx, id: number, opts: { forUpdate?: boolean } = {}): Promise<TokenRow | null> {
  const q = db.select().from(apiTokens).where(eq(apiTokens.id, id));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

/** Ends a token at `at` (unless it was already revoked), naming its successor when it has one. */
export async function endToken(db: DbOrTx, id: number, at: Date, replacedById?: number): Promise<void> {
  await db
    .update(apiTokens)
    .set({ revokedAt: at, ...(replacedById !== undefined ? { replacedById } : {}) })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
}

export async function accountById(db: DbOrTx, id: number): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row ?? null;
}
