// Pictures of catalogue records (src/domain/media): the upload rows, the per-account count
// behind the upload quota, and the `picture` column of the record a picture is attached to.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { events, exhibitions, media, museums, tickets, tours, type PictureJson } from '../schema/index.ts';

export type MediaRow = typeof media.$inferSelect;
export type NewMedia = typeof media.$inferInsert;
export type MediaTargetType = 'museum' | 'exhibition' | 'ticket' | 'event' | 'tour';

const TABLES = { museum: museums, exhibition: exhibitions, ticket: tickets, event: events, tour: tours } as const;

/** The museum a record belongs to (a museum: itself), locked for the attaching write; undefined when there is no such record. */
export async function lockTargetMuseum(db: DbOrTx, type: MediaTargetType, id: number): Promise<number | undefined> {
  if (type === 'museum') {
    const [m] = await db.select({ museumId: museums.id }).from(museums).where(eq(museums.id, id)).for('update');
    return m?.museumId;
  }
  const t = TABLES[type];
  const [r] = await db.select({ museumId: t.museumId }).from(t).where(eq(t.id, id)).for('update');
  return r?.museumId;
}

/** The museum a record belongs to, without a lock (the check before the picture is processed). */
export async function targetMuseum(db: DbOrTx, type: MediaTargetType, id: number): Promise<number | undefined> {
  if (type === 'museum') {
    const [m] = await db.select({ museumId: museums.id }).from(museums).where(eq(museums.id, id));
    return m?.museumId;
  }
  const t = TABLES[type];
  const [r] = await db.select({ museumId: t.museumId }).from(t).where(eq(t.id, id));
  return r?.museumId;
}

/** Serialises one account's uploads to the commit, so parallel uploads cannot pass the quota together. */
export async function lockAccountMedia(tx: DbOrTx, accountId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('atrium-media-quota:' || ${accountId}::integer, 0))`);
}

export async function accountMediaCount(db: DbOrTx, accountId: number): Promise<number> {
  const [r] = await db.select({ n: count() }).from(media).where(eq(media.accountId, accountId));
  return r?.n ?? 0;
}

export async function insertMedia(db: DbOrTx, values: NewMedia): Promise<MediaRow> {
  return (await db.insert(media).values(values).returning())[0]!;
}

export async function mediaById(db: DbOrTx, id: number): Promise<MediaRow | undefined> {
  const [r] = await db.select().from(media).where(eq(media.id, id));
  return r;
}

export async function deleteMedia(db: DbOrTx, id: number): Promise<void> {
  await db.delete(media).where(eq(media.id, id));
}

/** The newest picture still attached to a record, if any (what it shows once a newer one is deleted). */
export async function latestMediaOf(db: DbOrTx, type: MediaTargetType, id: number): Promise<MediaRow | undefined> {
  const [r] = await db.select().from(media).where(and(eq(media.targetType, type), eq(media.targetId, id))).orderBy(desc(media.id)).limit(1);
  return r;
}

/** Sets the record's go~mus `picture` (an update of the record: the catalogue version follows). */
export async function setPicture(db: DbOrTx, type: MediaTargetType, id: number, picture: PictureJson | null, at: Date): Promise<void> {
  const t = TABLES[type];
  await db.update(t).set({ picture, updatedAt: at }).where(eq(t.id, id));
}

/** Every catalogue record without a picture, with its title (the demo draws one for each). */
export async function recordsWithoutPicture(db: DbOrTx): Promise<Array<{ type: MediaTargetType; id: number; museumId: number; title: Record<string, string> }>> {
  const out: Array<{ type: MediaTargetType; id: number; museumId: number; title: Record<string, string> }> = [];
  for (const [type, t] of Object.entries(TABLES) as Array<[MediaTargetType, (typeof TABLES)[MediaTargetType]]>) {
    const museumId = type === 'museum' ? museums.id : (t as typeof tickets).museumId;
    const rows = await db.select({ id: t.id, museumId, title: t.title }).from(t).where(sql`${t.picture} is null`).orderBy(t.id);
    for (const r of rows) out.push({ type, ...r });
  }
  return out;
}
