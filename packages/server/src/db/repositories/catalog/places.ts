// Writes of museums and exhibitions (staff). Each `lock…` reads the row FOR UPDATE.
import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { exhibitions, museums } from '../../schema/index.ts';

export type Museum = typeof museums.$inferSelect;
export type MuseumValues = typeof museums.$inferInsert;
export type Exhibition = typeof exhibitions.$inferSelect;
export type ExhibitionValues = typeof exhibitions.$inferInsert;

export async function lockMuseum(db: DbOrTx, id: number): Promise<Museum | undefined> {
  const [m] = await db.select().from(museums).where(eq(museums.id, id)).for('update');
  return m;
}

export async function insertMuseum(db: DbOrTx, values: MuseumValues): Promise<Museum> {
  return (await db.insert(museums).values(values).returning())[0]!;
}

export async function updateMuseum(db: DbOrTx, id: number, values: Partial<MuseumValues> & { updatedAt: Date }): Promise<Museum> {
  return (await db.update(museums).set(values).where(eq(museums.id, id)).returning())[0]!;
}

export async function lockExhibition(db: DbOrTx, id: number): Promise<Exhibition | undefined> {
  const [x] = await db.select().from(exhibitions).where(eq(exhibitions.id, id)).for('update');
  return x;
}

export async function insertExhibition(db: DbOrTx, values: ExhibitionValues): Promise<Exhibition> {
  return (await db.insert(exhibitions).values(values).returning())[0]!;
}

export async function updateExhibition(db: DbOrTx, id: number, values: ExhibitionValues & { updatedAt: Date }): Promise<Exhibition> {
  return (await db.update(exhibitions).set(values).where(eq(exhibitions.id, id)).returning())[0]!;
}

/** How many museums there are. */
export async function museumCount(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(museums);
  return row?.n ?? 0;
}
