// Set-password links of staff users (domain/staff/passwordLinks.ts holds the rules): known by the
// SHA-256 of their token, one live link per user, used at most once by a conditional update.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { staffPasswordLinks, staffUsers } from '../schema/index.ts';

/** Deletes the user's links and stores this one: an earlier link stops working. */
export async function replacePasswordLink(db: DbOrTx, v: { tokenHash: string; staffUserId: number; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db.delete(staffPasswordLinks).where(eq(staffPasswordLinks.staffUserId, v.staffUserId));
  await db.insert(staffPasswordLinks).values(v);
}

export async function deletePasswordLinksOf(db: DbOrTx, staffUserId: number): Promise<void> {
  await db.delete(staffPasswordLinks).where(eq(staffPasswordLinks.staffUserId, staffUserId));
}

/** The user of an unused, unexpired link of an enabled user, or null. */
export async function livePasswordLinkUser(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name, locale: staffUsers.locale })
    .from(staffPasswordLinks)
    .innerJoin(staffUsers, eq(staffUsers.id, staffPasswordLinks.staffUserId))
    .where(and(eq(staffPasswordLinks.tokenHash, tokenHash), isNull(staffPasswordLinks.usedAt), gt(staffPasswordLinks.expiresAt, now), isNull(staffUsers.disabledAt)));
  return row ?? null;
}

/** Marks a live link used; the user's id, or null when it was not live (used, expired, replaced). */
export async function usePasswordLink(db: DbOrTx, tokenHash: string, now: Date): Promise<number | null> {
  const [row] = await db
    .update(staffPasswordLinks)
    .set({ usedAt: now })
    .where(and(eq(staffPasswordLinks.tokenHash, tokenHash), isNull(staffPasswordLinks.usedAt), gt(staffPasswordLinks.expiresAt, now)))
    .returning({ staffUserId: staffPasswordLinks.staffUserId });
  return row?.staffUserId ?? null;
}
