// Writes a validated plan inside the caller's transaction: each record is inserted, or updated
// when its key (catalog_keys) already names a record. Link tables (ticket quotas, tour
// languages, quota overrides) are replaced with what the file says. Nothing is deleted: a record
// that leaves the file stays as it is (set `active: false` to withdraw a product), because
// orders may reference it.
import { eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import {
  catalogKeys,
  eventDates,
  events,
  exhibitions,
  languages,
  museums,
  quotaOverrides,
  quotas,
  ticketQuotas,
  tickets,
  tourLanguages,
  tours,
} from '../../db/schema/index.ts';
import type { Plan } from './plan.ts';

export type Kind = 'language' | 'museum' | 'exhibition' | 'quota' | 'ticket' | 'event' | 'event_date' | 'tour';
export type Summary = Record<Kind, { created: number; updated: number }>;

type Keyed = PgTable & { id: PgColumn; updatedAt: PgColumn };

// Serialises imports (and demo seeding on several nodes at once): two concurrent imports of one
// file would otherwise both find a key missing and both insert the record.
const IMPORT_LOCK = 7_346_812_101;

export async function applyCatalogue(tx: Tx, plan: Plan, now: Date): Promise<Summary> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
  const summary = Object.fromEntries(
    (['language', 'museum', 'exhibition', 'quota', 'ticket', 'event', 'event_date', 'tour'] as Kind[]).map((k) => [k, { created: 0, updated: 0 }]),
  ) as Summary;
  const known = new Map<string, number>();
  for (const r of await tx.select().from(catalogKeys)) known.set(`${r.kind}\u0000${r.key}`, r.recordId);

  async function upsert(kind: Kind, key: string, table: Keyed, values: Record<string, unknown>): Promise<number> {
    const id = known.get(`${kind}\u0000${key}`);
    if (id !== undefined) {
      const done = await tx
        .update(table)
        .set({ ...values, updatedAt: now } as never)
        .where(eq(table.id, id))
        .returning({ id: table.id });
      if (done.length) {
        summary[kind].updated++;
        return id;
      }
    }
    const [row] = (await tx.insert(table).values(values as never).returning({ id: table.id })) as Array<{ id: number }>;
    await tx
      .insert(catalogKeys)
      .values({ kind, key, recordId: row!.id })
      .onConflictDoUpdate({ target: [catalogKeys.kind, catalogKeys.key], set: { recordId: row!.id, updatedAt: now } });
    summary[kind].created++;
    return row!.id;
  }
  const ids = (m: Map<string, number>, keys: string[]) => keys.map((k) => m.get(k)!);

  const languageIds = new Map<string, number>();
  if (plan.languages.length) {
    const codes = plan.languages.map((l) => l.code);
    const before = new Set((await tx.select({ code: languages.code }).from(languages).where(inArray(languages.code, codes))).map((r) => r.code));
    for (const l of plan.languages) {
      const [row] = await tx
        .insert(languages)
        .values(l)
        .onConflictDoUpdate({ target: languages.code, set: { name: l.name } })
        .returning({ id: languages.id });
      languageIds.set(l.code, row!.id);
      summary.language[before.has(l.code) ? 'updated' : 'created']++;
    }
  }

  const museumIds = new Map<string, number>();
  for (const m of plan.museums) museumIds.set(m.key, await upsert('museum', m.key, museums as Keyed, m.values));

  const exhibitionIds = new Map<string, number>();
  for (const e of plan.exhibitions) {
    exhibitionIds.set(e.key, await upsert('exhibition', e.key, exhibitions as Keyed, { ...e.values, museumId: museumIds.get(e.museum) }));
  }

  const quotaIds = new Map<string, number>();
  for (const q of plan.quotas) {
    const id = await upsert('quota', q.key, quotas as Keyed, { ...q.values, museumId: museumIds.get(q.museum) });
    quotaIds.set(q.key, id);
    await tx.delete(quotaOverrides).where(eq(quotaOverrides.quotaId, id));
    if (q.overrides.length) await tx.insert(quotaOverrides).values(q.overrides.map((o) => ({ ...o, quotaId: id })));
  }

  for (const t of plan.tickets) {
    const id = await upsert('ticket', t.key, tickets as Keyed, {
      ...t.values,
      museumId: museumIds.get(t.museum),
      exhibitionIds: ids(exhibitionIds, t.exhibitions),
    });
    await tx.delete(ticketQuotas).where(eq(ticketQuotas.ticketId, id));
    if (t.quotas.length) await tx.insert(ticketQuotas).values(ids(quotaIds, t.quotas).map((quotaId) => ({ ticketId: id, quotaId })));
  }

  for (const e of plan.events) {
    const eventId = await upsert('event', e.key, events as Keyed, {
      ...e.values,
      museumId: museumIds.get(e.museum),
      exhibitionId: e.exhibition ? exhibitionIds.get(e.exhibition) : null,
    });
    for (const d of e.dates) {
      await upsert('event_date', `${e.key}/${d.key}`, eventDates as Keyed, {
        ...d.values,
        eventId,
        languageId: d.language ? languageIds.get(d.language) : null,
      });
    }
  }

  for (const t of plan.tours) {
    const id = await upsert('tour', t.key, tours as Keyed, {
      ...t.values,
      museumId: museumIds.get(t.museum),
      exhibitionId: t.exhibition ? exhibitionIds.get(t.exhibition) : null,
    });
    await tx.delete(tourLanguages).where(eq(tourLanguages.tourId, id));
    if (t.languages.length) await tx.insert(tourLanguages).values(ids(languageIds, t.languages).map((languageId) => ({ tourId: id, languageId })));
  }
  return summary;
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
