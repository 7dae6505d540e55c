// A museum's opening hours: weekly hours and exceptions on the museum row, dated seasons in
// opening_seasons, and per-slot capacity overrides of its quotas.
import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { museums, openingSeasons, quotaSlotOverrides, type WeeklyHours } from '../../schema/index.ts';
import type { Hours } from './schedule.ts';

export type Museum = typeof museums.$inferSelect;
export type OpeningSeason = typeof openingSeasons.$inferSelect;
export interface SeasonValues {
  museumId: number;
  startDate: string;
  endDate: string;
  hours: WeeklyHours;
}

/** A museum; with `lock`, its row is locked FOR UPDATE. */
export async function museumForSchedule(db: DbOrTx, id: number, lock: boolean): Promise<Museum | undefined> {
  const q = db.select().from(museums).where(eq(museums.id, id));
  const [m] = lock ? await q.for('update') : await q;
  return m;
}

/** A museum's time zone. */
export async function museumZone(db: DbOrTx, id: number): Promise<string | undefined> {
  const [m] = await db.select({ zone: museums.timeZone }).from(museums).where(eq(museums.id, id));
  return m?.zone;
}

export async function setMuseumHours(db: DbOrTx, id: number, weekly: WeeklyHours, exceptions: Record<string, Hours>, updatedAt: Date): Promise<Museum> {
  const [row] = await db
    .update(museums)
    .set({ openingHours: weekly, openingExceptions: exceptions as Record<string, [number, number] | null>, updatedAt })
    .where(eq(museums.id, id))
    .returning();
  return row!;
}

/** A museum's seasons by start date. */
export async function seasonsOfMuseum(db: DbOrTx, museumId: number): Promise<OpeningSeason[]> {
  return db.select().from(openingSeasons).where(eq(openingSeasons.museumId, museumId)).orderBy(asc(openingSeasons.startDate));
}

/** Replaces a museum's seasons with `seasons`. */
export async function replaceSeasons(db: DbOrTx, museumId: number, seasons: SeasonValues[]): Promise<void> {
  await db.delete(openingSeasons).where(eq(openingSeasons.museumId, museumId));
  if (seasons.length) await db.insert(openingSeasons).values(seasons);
}

/** Sets the capacity of one slot of a quota. */
export async function upsertSlotCapacity(db: DbOrTx, quotaId: number, slotStart: Date, capacity: number): Promise<void> {
  await db
    .insert(quotaSlotOverrides)
    .values({ quotaId, slotStart, capacity })
    .onConflictDoUpdate({ target: [quotaSlotOverrides.quotaId, quotaSlotOverrides.slotStart], set: { capacity } });
}

/** The slots of a quota in [from, to) that have their own capacity (epoch ms). */
export async function slotOverridesIn(db: DbOrTx, quotaId: number, from: Date, to: Date): Promise<Set<number>> {
  const rows = await db
    .select({ at: quotaSlotOverrides.slotStart })
    .from(quotaSlotOverrides)
    .where(and(inArray(quotaSlotOverrides.quotaId, [quotaId]), gte(quotaSlotOverrides.slotStart, from), lt(quotaSlotOverrides.slotStart, to)));
  return new Set(rows.map((r) => r.at.getTime()));
}

/** Whether a quota has any slot override. */
export async function hasSlotOverride(db: DbOrTx, quotaId: number): Promise<boolean> {
  const [any] = await db.select({ id: quotaSlotOverrides.quotaId }).from(quotaSlotOverrides).where(eq(quotaSlotOverrides.quotaId, quotaId)).limit(1);
  return any !== undefined;
}
