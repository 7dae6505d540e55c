// The records a catalogue file names, by kind: read (locked), updated, created; and the links,
// languages and overrides the import merges. Used inside the import's transaction.
import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../client.ts';
import { catalogAppliedOverrides, closures, eventDates, events, exhibitions, languages, museums, quotaOverrides, quotas, tickets, tours } from '../../schema/index.ts';

type Keyed = PgTable & { id: PgColumn; updatedAt: PgColumn };

const KEYED = {
  museum: museums, exhibition: exhibitions, quota: quotas, ticket: tickets, event: events, tour: tours, event_date: eventDates, closure: closures,
} as unknown as Record<KeyedKind, Keyed>;

/** The kinds of record a file names by key. */
export type KeyedKind = 'museum' | 'exhibition' | 'quota' | 'ticket' | 'event' | 'tour' | 'event_date' | 'closure';

/** A keyed record's row (property names), locked FOR UPDATE. */
export async function lockKeyedRow(db: DbOrTx, kind: KeyedKind, id: number): Promise<Record<string, unknown> | undefined> {
  const table = KEYED[kind];
  const [row] = (await db.select().from(table).where(eq(table.id, id)).for('update')) as Array<Record<string, unknown>>;
  return row;
}

/** Writes `values` into a keyed record, stamping `updatedAt` where the table has one. */
export async function updateKeyedRow(db: DbOrTx, kind: KeyedKind, id: number, values: Record<string, unknown>, now: Date): Promise<void> {
  const table = KEYED[kind];
  const stamp = 'updatedAt' in table && table.updatedAt ? { updatedAt: now } : {};
  await db.update(table).set({ ...values, ...stamp } as never).where(eq(table.id, id));
}

/** Creates a keyed record; its id. */
export async function insertKeyedRow(db: DbOrTx, kind: KeyedKind, values: Record<string, unknown>): Promise<number> {
  const table = KEYED[kind];
  const [row] = (await db.insert(table).values(values as never).returning({ id: table.id })) as Array<{ id: number }>;
  return row!.id;
}

export type Language = typeof languages.$inferSelect;

export function languagesByCodes(db: DbOrTx, codes: string[]): Promise<Language[]> {
  return db.select().from(languages).where(inArray(languages.code, codes));
}

/** Creates the language, or renames the one with its code; its id. */
export async function upsertLanguage(db: DbOrTx, l: { code: string; name: string }): Promise<number> {
  const [row] = await db
    .insert(languages)
    .values(l)
    .onConflictDoUpdate({ target: languages.code, set: { name: l.name } })
    .returning({ id: languages.id });
  return row!.id;
}

/** A quota's per-date capacities: in the database (`quota_overrides`), by date. */
export async function quotaOverridesByDate(db: DbOrTx, quotaId: number): Promise<Map<string, number | null>> {
  return new Map((await db.select().from(quotaOverrides).where(eq(quotaOverrides.quotaId, quotaId))).map((r) => [r.date, r.capacity]));
}

/** A quota's per-date capacities as the last import wrote them (catalog_applied_overrides), by date. */
export async function appliedOverridesByDate(db: DbOrTx, quotaId: number): Promise<Map<string, number | null>> {
  return new Map(
    (await db.select().from(catalogAppliedOverrides).where(eq(catalogAppliedOverrides.quotaId, quotaId))).map((r) => [r.date, r.capacity]),
  );
}

/** Records what the import wrote for a date (undefined: nothing). */
export async function setAppliedOverride(db: DbOrTx, quotaId: number, date: string, capacity: number | null | undefined): Promise<void> {
  if (capacity === undefined) {
    await db.delete(catalogAppliedOverrides).where(and(eq(catalogAppliedOverrides.quotaId, quotaId), eq(catalogAppliedOverrides.date, date)));
  } else {
    await db
      .insert(catalogAppliedOverrides)
      .values({ quotaId, date, capacity })
      .onConflictDoUpdate({ target: [catalogAppliedOverrides.quotaId, catalogAppliedOverrides.date], set: { capacity } });
  }
}
