// Writes a validated plan inside the caller's transaction, as a merge (docs/adr/0014): each
// record the file names is created, or updated when its key (catalog_keys) already names one and
// a field differs; everything the file does not name is left alone (--prune is prune.ts). Link
// tables of named records (ticket quotas, tour languages) follow the file; per-date overrides are
// merged three-way (overrides.ts) so changes made through the API survive.
import { eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { catalogKeys, events, exhibitions, languages, museums, quotas, ticketQuotas, tickets, tourLanguages, tours } from '../../db/schema/index.ts';
import { categoryIdByName } from '../../db/repositories/catalog/categories.ts';
import { applyEventDates } from './dates.ts';
import { applyOverrides } from './overrides.ts';
import { applyClosures, applySeasons } from './schedules.ts';
import { lockSchedule } from '../../db/repositories/schedules/closures.ts';
import type { Plan } from './plan.ts';
import { record, type Kind, type Summary } from './report.ts';

type Keyed = PgTable & { id: PgColumn; updatedAt: PgColumn };

// Serialises imports (and demo seeding on several nodes at once): two concurrent imports of one
// file would otherwise both find a key missing and both insert the record.
export const IMPORT_LOCK = 7_346_812_101;

/** Comparable form of a column value: timestamps as ISO text, objects with sorted keys. */
function canon(v: unknown): string {
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface Applier {
  tx: Tx;
  now: Date;
  summary: Summary;
  /** Keys → record ids as in catalog_keys, kept current while applying. */
  known: Map<string, number>;
  /** `kind\0key` of every record the file names (what --prune keeps). */
  named: Set<string>;
  upsert(kind: Kind, key: string, table: Keyed, values: Record<string, unknown>): Promise<number>;
}

export async function applyCatalogue(tx: Tx, plan: Plan, now: Date, summary: Summary): Promise<Applier> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
  const known = new Map<string, number>();
  for (const r of await tx.select().from(catalogKeys)) known.set(`${r.kind}\u0000${r.key}`, r.recordId);

  const named = new Set<string>();
  async function upsert(kind: Kind, key: string, table: Keyed, values: Record<string, unknown>): Promise<number> {
    named.add(`${kind}\u0000${key}`);
    const id = known.get(`${kind}\u0000${key}`);
    if (id !== undefined) {
      const [row] = (await tx.select().from(table).where(eq(table.id, id)).for('update')) as Array<Record<string, unknown>>;
      if (row) {
        const fields = Object.keys(values).filter((k) => canon(values[k]) !== canon(row[k]));
        if (fields.length) {
          const stamp = 'updatedAt' in table && table.updatedAt ? { updatedAt: now } : {};
          await tx.update(table).set({ ...values, ...stamp } as never).where(eq(table.id, id));
          record(summary, kind, key, 'update', fields.map(snake));
        } else record(summary, kind, key, 'unchanged');
        return id;
      }
    }
    // New, or its record was deleted elsewhere: the key is pointed at a new record.
    const [row] = (await tx.insert(table).values(values as never).returning({ id: table.id })) as Array<{ id: number }>;
    await tx
      .insert(catalogKeys)
      .values({ kind, key, recordId: row!.id })
      .onConflictDoUpdate({ target: [catalogKeys.kind, catalogKeys.key], set: { recordId: row!.id, updatedAt: now } });
    known.set(`${kind}\u0000${key}`, row!.id);
    record(summary, kind, key, 'create');
    return row!.id;
  }
  const ids = (m: Map<string, number>, keys: string[]) => keys.map((k) => m.get(k)!);
  const applier: Applier = { tx, now, summary, known, named, upsert };

  const languageIds = new Map<string, number>();
  if (plan.languages.length) {
    const codes = plan.languages.map((l) => l.code);
    const before = new Map((await tx.select().from(languages).where(inArray(languages.code, codes))).map((r) => [r.code, r]));
    for (const l of plan.languages) {
      const old = before.get(l.code);
      if (old && old.name === l.name) {
        languageIds.set(l.code, old.id);
        record(summary, 'language', l.code, 'unchanged');
        continue;
      }
      const [row] = await tx
        .insert(languages)
        .values(l)
        .onConflictDoUpdate({ target: languages.code, set: { name: l.name } })
        .returning({ id: languages.id });
      languageIds.set(l.code, row!.id);
      record(summary, 'language', l.code, old ? 'update' : 'create', old ? ['name'] : undefined);
    }
  }

  const museumIds = new Map<string, number>();
  for (const m of plan.museums) {
    const id = await upsert('museum', m.key, museums as Keyed, m.values);
    museumIds.set(m.key, id);
    // The museum's hours, seasons and closures change under its schedule lock, as through the API:
    // a finalize re-checking sellability then sees either the old schedule or the new one.
    await lockSchedule(tx, id);
    await applySeasons(applier, m.key, id, m.seasons);
  }

  const exhibitionIds = new Map<string, number>();
  for (const e of plan.exhibitions) {
    exhibitionIds.set(e.key, await upsert('exhibition', e.key, exhibitions as Keyed, { ...e.values, museumId: museumIds.get(e.museum) }));
  }

  const quotaIds = new Map<string, number>();
  for (const q of plan.quotas) {
    const id = await upsert('quota', q.key, quotas as Keyed, { ...q.values, museumId: museumIds.get(q.museum) });
    quotaIds.set(q.key, id);
    await applyOverrides(applier, q.key, id, q.overrides);
  }

  const ticketIds = new Map<string, number>();
  for (const t of plan.tickets) {
    const id = await upsert('ticket', t.key, tickets as Keyed, {
      ...t.values,
      museumId: museumIds.get(t.museum),
      exhibitionIds: ids(exhibitionIds, t.exhibitions),
    });
    ticketIds.set(t.key, id);
    await replaceLinks(applier, 'ticket', t.key, ticketQuotas, ticketQuotas.ticketId, ticketQuotas.quotaId, id, ids(quotaIds, t.quotas), 'quotas', (quotaId) => ({ ticketId: id, quotaId }));
  }

  const eventIds = new Map<string, number>();
  for (const e of plan.events) {
    eventIds.set(e.key, await upsert('event', e.key, events as Keyed, {
      ...e.values,
      categoryId: e.category === null ? null : await categoryIdByName(tx, 'event', e.category),
      museumId: museumIds.get(e.museum),
      exhibitionId: e.exhibition ? exhibitionIds.get(e.exhibition) : null,
    }));
  }

  const tourIds = new Map<string, number>();
  for (const t of plan.tours) {
    const id = await upsert('tour', t.key, tours as Keyed, {
      ...t.values,
      categoryId: t.category === null ? null : await categoryIdByName(tx, 'tour', t.category),
      museumId: museumIds.get(t.museum),
      exhibitionId: t.exhibition ? exhibitionIds.get(t.exhibition) : null,
    });
    await replaceLinks(applier, 'tour', t.key, tourLanguages, tourLanguages.tourId, tourLanguages.languageId, id, ids(languageIds, t.languages), 'languages', (languageId) => ({ tourId: id, languageId }));
    tourIds.set(t.key, id);
  }

  // Closures before event dates: a recurrence skips the file's closures too.
  await applyClosures(applier, plan, { museums: museumIds, tickets: ticketIds, quotas: quotaIds, events: eventIds, tours: tourIds });
  for (const e of plan.events) {
    await applyEventDates(applier, e, { eventId: eventIds.get(e.key)!, museumId: museumIds.get(e.museum)!, zone: plan.zones.get(e.museum) ?? 'UTC', languageIds });
  }
  return applier;
}

/** Sets a named record's link rows to the file's list, writing only when they differ. */
async function replaceLinks(
  a: Applier, kind: Kind, key: string, table: PgTable, owner: PgColumn, other: PgColumn, id: number, wanted: number[], field: string, row: (v: number) => object,
) {
  const have = (await a.tx.select({ v: other }).from(table).where(eq(owner, id))).map((r) => r.v as number);
  if (canon([...have].sort((x, y) => x - y)) === canon([...wanted].sort((x, y) => x - y))) return;
  await a.tx.delete(table).where(eq(owner, id));
  if (wanted.length) await a.tx.insert(table).values(wanted.map(row) as never);
  const last = a.summary.changes.at(-1);
  if (last && last.kind === kind && last.key === key) {
    if (last.action === 'update') last.fields = [...(last.fields ?? []), field];
  } else {
    // The record itself was unchanged: count it as updated after all.
    a.summary.counts[kind].unchanged--;
    record(a.summary, kind, key, 'update', [field]);
  }
}

/** Reseller ids that name no reseller account (checked before applying, with positions). */
export async function unknownResellers(db: Pick<Tx, 'execute'>, wanted: number[]): Promise<Set<number>> {
  if (wanted.length === 0) return new Set();
  const res = await db.execute<{ id: number }>(
    sql`select id from accounts where class = 'reseller' and id in (${sql.join(wanted.map((w) => sql`${w}`), sql`, `)})`,
  );
  const found = new Set(res.rows.map((r) => Number(r.id)));
  return new Set(wanted.filter((w) => !found.has(w)));
}
