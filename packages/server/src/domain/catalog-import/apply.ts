// Writes a validated plan inside the caller's transaction, as a merge (docs/adr/0014): each
// record the file names is created, or updated when its key (catalog_keys) already names one and
// a field differs; everything the file does not name is left alone (--prune is prune.ts). Link
// tables of named records (ticket quotas, tour languages) follow the file; per-date overrides are
// merged three-way (overrides.ts) so changes made through the API survive.
import type { DbOrTx, Tx } from '../../db/client.ts';
import { categoryIdByName } from '../../db/repositories/catalog/categories.ts';
import { languageIdsOfTour, quotaIdsOfTicket, setTicketQuotas, setTourLanguages } from '../../db/repositories/catalog/products.ts';
import { resellerIdsAmong } from '../../db/repositories/catalog/refs.ts';
import { allCatalogKeys, lockImports, pointKey } from '../../db/repositories/imports/keys.ts';
import { insertKeyedRow, languagesByCodes, lockKeyedRow, updateKeyedRow, upsertLanguage, type KeyedKind } from '../../db/repositories/imports/records.ts';
import { applyEventDates } from './dates.ts';
import { applyOverrides } from './overrides.ts';
import { applyClosures, applySeasons } from './schedules.ts';
import { lockSchedule } from '../../db/repositories/schedules/closures.ts';
import type { Plan } from './plan.ts';
import { record, type Kind, type Summary } from './report.ts';

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
  upsert(kind: KeyedKind, key: string, values: Record<string, unknown>): Promise<number>;
}

export async function applyCatalogue(tx: Tx, plan: Plan, now: Date, summary: Summary): Promise<Applier> {
  await lockImports(tx);
  const known = new Map<string, number>();
  for (const r of await allCatalogKeys(tx)) known.set(`${r.kind}\u0000${r.key}`, r.recordId);

  const named = new Set<string>();
  async function upsert(kind: KeyedKind, key: string, values: Record<string, unknown>): Promise<number> {
    named.add(`${kind}\u0000${key}`);
    const id = known.get(`${kind}\u0000${key}`);
    if (id !== undefined) {
      const row = await lockKeyedRow(tx, kind, id);
      if (row) {
        const fields = Object.keys(values).filter((k) => canon(values[k]) !== canon(row[k]));
        if (fields.length) {
          await updateKeyedRow(tx, kind, id, values, now);
          record(summary, kind, key, 'update', fields.map(snake));
        } else record(summary, kind, key, 'unchanged');
        return id;
      }
    }
    // New, or its record was deleted elsewhere: the key is pointed at a new record.
    const created = await insertKeyedRow(tx, kind, values);
    await pointKey(tx, kind, key, created, now);
    known.set(`${kind}\u0000${key}`, created);
    record(summary, kind, key, 'create');
    return created;
  }
  const ids = (m: Map<string, number>, keys: string[]) => keys.map((k) => m.get(k)!);
  const applier: Applier = { tx, now, summary, known, named, upsert };

  const languageIds = new Map<string, number>();
  if (plan.languages.length) {
    const codes = plan.languages.map((l) => l.code);
    const before = new Map((await languagesByCodes(tx, codes)).map((r) => [r.code, r]));
    for (const l of plan.languages) {
      const old = before.get(l.code);
      if (old && old.name === l.name) {
        languageIds.set(l.code, old.id);
        record(summary, 'language', l.code, 'unchanged');
        continue;
      }
      languageIds.set(l.code, await upsertLanguage(tx, l));
      record(summary, 'language', l.code, old ? 'update' : 'create', old ? ['name'] : undefined);
    }
  }

  const museumIds = new Map<string, number>();
  for (const m of plan.museums) {
    const id = await upsert('museum', m.key, m.values);
    museumIds.set(m.key, id);
    // The museum's hours, seasons and closures change under its schedule lock, as through the API:
    // a finalize re-checking sellability then sees either the old schedule or the new one.
    await lockSchedule(tx, id);
    await applySeasons(applier, m.key, id, m.seasons);
  }

  const exhibitionIds = new Map<string, number>();
  for (const e of plan.exhibitions) {
    exhibitionIds.set(e.key, await upsert('exhibition', e.key, { ...e.values, museumId: museumIds.get(e.museum) }));
  }

  const quotaIds = new Map<string, number>();
  for (const q of plan.quotas) {
    const id = await upsert('quota', q.key, { ...q.values, museumId: museumIds.get(q.museum) });
    quotaIds.set(q.key, id);
    await applyOverrides(applier, q.key, id, q.overrides);
  }

  const ticketIds = new Map<string, number>();
  for (const t of plan.tickets) {
    const id = await upsert('ticket', t.key, {
      ...t.values,
      museumId: museumIds.get(t.museum),
      exhibitionIds: ids(exhibitionIds, t.exhibitions),
    });
    ticketIds.set(t.key, id);
    await replaceLinks(applier, 'ticket', t.key, TICKET_QUOTAS, id, ids(quotaIds, t.quotas), 'quotas');
  }

  const eventIds = new Map<string, number>();
  for (const e of plan.events) {
    eventIds.set(e.key, await upsert('event', e.key, {
      ...e.values,
      categoryId: e.category === null ? null : await categoryIdByName(tx, 'event', e.category),
      museumId: museumIds.get(e.museum),
      exhibitionId: e.exhibition ? exhibitionIds.get(e.exhibition) : null,
    }));
  }

  const tourIds = new Map<string, number>();
  for (const t of plan.tours) {
    const id = await upsert('tour', t.key, {
      ...t.values,
      categoryId: t.category === null ? null : await categoryIdByName(tx, 'tour', t.category),
      museumId: museumIds.get(t.museum),
      exhibitionId: t.exhibition ? exhibitionIds.get(t.exhibition) : null,
    });
    await replaceLinks(applier, 'tour', t.key, TOUR_LANGUAGES, id, ids(languageIds, t.languages), 'languages');
    tourIds.set(t.key, id);
  }

  // Closures before event dates: a recurrence skips the file's closures too.
  await applyClosures(applier, plan, { museums: museumIds, tickets: ticketIds, quotas: quotaIds, events: eventIds, tours: tourIds });
  for (const e of plan.events) {
    await applyEventDates(applier, e, { eventId: eventIds.get(e.key)!, museumId: museumIds.get(e.museum)!, zone: plan.zones.get(e.museum) ?? 'UTC', languageIds });
  }
  return applier;
}

/** A record's link rows: read them, or replace them with a list. */
interface Links {
  read(db: DbOrTx, id: number): Promise<number[]>;
  replace(db: DbOrTx, id: number, wanted: number[]): Promise<void>;
}
const TICKET_QUOTAS: Links = { read: quotaIdsOfTicket, replace: (db, id, wanted) => setTicketQuotas(db, id, wanted, true) };
const TOUR_LANGUAGES: Links = { read: languageIdsOfTour, replace: (db, id, wanted) => setTourLanguages(db, id, wanted, true) };

/** Sets a named record's link rows to the file's list, writing only when they differ. */
async function replaceLinks(a: Applier, kind: Kind, key: string, links: Links, id: number, wanted: number[], field: string) {
  const have = await links.read(a.tx, id);
  if (canon([...have].sort((x, y) => x - y)) === canon([...wanted].sort((x, y) => x - y))) return;
  await links.replace(a.tx, id, wanted);
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
export async function unknownResellers(db: DbOrTx, wanted: number[]): Promise<Set<number>> {
  if (wanted.length === 0) return new Set();
  const found = await resellerIdsAmong(db, wanted);
  return new Set(wanted.filter((w) => !found.has(w)));
}
