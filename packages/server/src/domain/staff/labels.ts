// Display names for the console: ticket, tour, event and museum titles in the user's language
// (falling back to German, then any), loaded in one query per kind.
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { museums, tickets, tours } from '../../db/schema/index.ts';

export function translated(t: Record<string, string> | null | undefined, locale: string): string {
  if (!t) return '';
  return t[locale] ?? t.de ?? Object.values(t)[0] ?? '';
}

export async function ticketTitles(db: DbOrTx, ids: number[], locale: string): Promise<Map<number, string>> {
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return new Map();
  const rows = await db.select({ id: tickets.id, title: tickets.title }).from(tickets).where(inArray(tickets.id, uniq));
  return new Map(rows.map((r) => [r.id, translated(r.title, locale)]));
}

export async function museumTitles(db: DbOrTx, locale: string): Promise<Map<number, { title: string; zone: string }>> {
  const rows = await db.select({ id: museums.id, title: museums.title, zone: museums.timeZone }).from(museums);
  return new Map(rows.map((r) => [r.id, { title: translated(r.title, locale), zone: r.zone }]));
}

export async function tourTitles(db: DbOrTx, ids: number[], locale: string): Promise<Map<number, string>> {
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return new Map();
  const rows = await db.select({ id: tours.id, title: tours.title }).from(tours).where(inArray(tours.id, uniq));
  return new Map(rows.map((r) => [r.id, translated(r.title, locale)]));
}
