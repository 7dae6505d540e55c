// The console's select options: museums, and a museum's tickets, quotas and events, by id.
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { events, museums, quotas, tickets, type Translated } from '../../schema/index.ts';

export interface Titled {
  id: number;
  title: Translated;
}

export function museumTitles(db: DbOrTx): Promise<Array<Titled & { zone: string }>> {
  return db.select({ id: museums.id, title: museums.title, zone: museums.timeZone }).from(museums).orderBy(asc(museums.id));
}

export function ticketTitlesOfMuseum(db: DbOrTx, museumId: number): Promise<Titled[]> {
  return db.select({ id: tickets.id, title: tickets.title }).from(tickets).where(eq(tickets.museumId, museumId)).orderBy(asc(tickets.id));
}

export function quotasOfMuseum(db: DbOrTx, museumId: number): Promise<Array<{ id: number; name: string; kind: string }>> {
  return db.select({ id: quotas.id, name: quotas.name, kind: quotas.kind }).from(quotas).where(eq(quotas.museumId, museumId)).orderBy(asc(quotas.id));
}

export function eventTitlesOfMuseum(db: DbOrTx, museumId: number): Promise<Titled[]> {
  return db.select({ id: events.id, title: events.title }).from(events).where(eq(events.museumId, museumId)).orderBy(asc(events.id));
}

/** The museum of a quota or event, if it exists. */
export async function museumIdOf(db: DbOrTx, kind: 'quota' | 'event', id: number): Promise<number | undefined> {
  const t = kind === 'quota' ? quotas : events;
  const [row] = await db.select({ m: t.museumId }).from(t).where(eq(t.id, id));
  return row?.m;
}
