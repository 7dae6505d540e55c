// What the catalogue's reference rules (domain/catalog/rules.ts) read of other records, inside
// the write's transaction.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { accounts, exhibitions, languages, quotas, ticketQuotas, tickets } from '../../schema/index.ts';
import type { Quota } from './quotas.ts';

/** Which of `ids` are exhibitions of museum `museumId`. */
export async function exhibitionIdsInMuseum(db: DbOrTx, museumId: number, ids: number[]): Promise<Set<number>> {
  const found = await db.select({ id: exhibitions.id }).from(exhibitions).where(and(inArray(exhibitions.id, ids), eq(exhibitions.museumId, museumId)));
  return new Set(found.map((r) => r.id));
}

export async function quotasByIds(db: DbOrTx, ids: number[]): Promise<Quota[]> {
  return db.select().from(quotas).where(inArray(quotas.id, ids));
}

/** The day tickets ('normal') that draw from a quota. */
export async function dayTicketIdsOfQuota(db: DbOrTx, quotaId: number): Promise<number[]> {
  const rows = await db
    .select({ id: tickets.id })
    .from(ticketQuotas)
    .innerJoin(tickets, eq(tickets.id, ticketQuotas.ticketId))
    .where(and(eq(ticketQuotas.quotaId, quotaId), eq(tickets.ticketType, 'normal')));
  return rows.map((r) => r.id);
}

/** Which of `ids` are languages. */
export async function languageIdsAmong(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  return new Set((await db.select({ id: languages.id }).from(languages).where(inArray(languages.id, ids))).map((r) => r.id));
}

/** Which of `ids` are reseller accounts. */
export async function resellerIdsAmong(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  const found = await db.select({ id: accounts.id }).from(accounts).where(and(inArray(accounts.id, ids), eq(accounts.class, 'reseller')));
  return new Set(found.map((r) => r.id));
}
