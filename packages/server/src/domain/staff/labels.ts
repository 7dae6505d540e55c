// Display names for the console: ticket, tour, event and museum titles in the user's language
// (falling back to German, then any), loaded in one query per kind.
import type { DbOrTx } from '../../db/client.ts';
import { museumTitleZoneRows, ticketTitleRows, tourTitleRows } from '../../db/repositories/staff.ts';

export function translated(t: Record<string, string> | null | undefined, locale: string): string {
  if (!t) return '';
  return t[locale] ?? t.de ?? Object.values(t)[0] ?? '';
}

export async function ticketTitles(db: DbOrTx, ids: number[], locale: string): Promise<Map<number, string>> {
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return new Map();
  const rows = await ticketTitleRows(db, uniq);
  return new Map(rows.map((r) => [r.id, translated(r.title, locale)]));
}

export async function museumTitles(db: DbOrTx, locale: string): Promise<Map<number, { title: string; zone: string }>> {
  const rows = await museumTitleZoneRows(db);
  return new Map(rows.map((r) => [r.id, { title: translated(r.title, locale), zone: r.zone }]));
}

export async function tourTitles(db: DbOrTx, ids: number[], locale: string): Promise<Map<number, string>> {
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return new Map();
  const rows = await tourTitleRows(db, uniq);
  return new Map(rows.map((r) => [r.id, translated(r.title, locale)]));
}
