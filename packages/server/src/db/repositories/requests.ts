// Statements of the requests area: group booking inquiries, their items, and their decisions.
import { and, asc, count, eq, gte, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { documents, museums, orders, requestItems, requests, tourLanguages, tours } from '../schema/index.ts';
import { scopeWhere, type RecordScope } from './scope.ts';

export type RequestRow = typeof requests.$inferSelect;
export type NewRequest = typeof requests.$inferInsert;
export type TourRow = typeof tours.$inferSelect;
export interface RequestItemRow {
  requestId: number;
  tourId: number;
  languageId: number;
  startAt: Date;
  /** The museum's zone. */
  zone: string;
}

export async function requestOfAccountByForeignId(db: DbOrTx, accountId: number, foreignId: string): Promise<RequestRow | null> {
  const [row] = await db.select().from(requests).where(and(eq(requests.accountId, accountId), eq(requests.foreignId, foreignId)));
  return row ?? null;
}

export async function insertRequestRow(db: DbOrTx, values: NewRequest): Promise<number> {
  const [row] = await db.insert(requests).values(values).returning({ id: requests.id });
  return row!.id;
}

export async function insertRequestItems(
  db: DbOrTx,
  requestId: number,
  items: Array<{ tourId: number; languageId: number; startAt: Date }>,
): Promise<void> {
  await db.insert(requestItems).values(items.map((i) => ({ requestId, tourId: i.tourId, languageId: i.languageId, startAt: i.startAt })));
}

export async function updateRequest(db: DbOrTx, id: number, changes: Partial<NewRequest>): Promise<void> {
  await db.update(requests).set(changes).where(eq(requests.id, id));
}

/** One request within the scope, optionally locked FOR UPDATE. */
export async function findRequestInScope(db: DbOrTx, id: number, scope: RecordScope, forUpdate = false): Promise<RequestRow | null> {
  const q = db.select().from(requests).where(and(eq(requests.id, id), scopeWhere(requests, scope)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function requestById(db: DbOrTx, id: number): Promise<RequestRow | null> {
  const [row] = await db.select().from(requests).where(eq(requests.id, id));
  return row ?? null;
}

/** The items of requests with their museum's zone, in id order. */
export async function itemsOfRequests(db: DbOrTx, requestIds: number[]): Promise<RequestItemRow[]> {
  if (requestIds.length === 0) return [];
  return db
    .select({ requestId: requestItems.requestId, tourId: requestItems.tourId, languageId: requestItems.languageId, startAt: requestItems.startAt, zone: museums.timeZone })
    .from(requestItems)
    .innerJoin(tours, eq(tours.id, requestItems.tourId))
    .innerJoin(museums, eq(museums.id, tours.museumId))
    .where(inArray(requestItems.requestId, requestIds))
    .orderBy(asc(requestItems.id));
}

export interface RequestFilter {
  scope: RecordScope;
  foreignId?: string;
  status?: string;
  updatedSince?: Date;
}

/** A page of requests (id ascending) and the total matching the filter. */
export async function pageOfRequests(db: DbOrTx, f: RequestFilter, page: { limit: number; offset: number }): Promise<{ rows: RequestRow[]; total: number }> {
  const where: SQL[] = [scopeWhere(requests, f.scope)];
  if (f.foreignId !== undefined) where.push(eq(requests.foreignId, f.foreignId));
  if (f.status) where.push(eq(requests.status, f.status));
  if (f.updatedSince) where.push(gte(requests.updatedAt, f.updatedSince));
  const cond = and(...where);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(requests).where(cond);
  const rows = await db.select().from(requests).where(cond).orderBy(asc(requests.id)).limit(page.limit).offset(page.offset);
  return { rows, total: Number(n) };
}

/** A tour with its museum's zone, for checking a requested item. */
export async function tourWithZone(db: DbOrTx, tourId: number): Promise<{ t: TourRow; zone: string } | null> {
  const [row] = await db.select({ t: tours, zone: museums.timeZone }).from(tours).innerJoin(museums, eq(museums.id, tours.museumId)).where(eq(tours.id, tourId));
  return row ?? null;
}

export async function tourOffersLanguage(db: DbOrTx, tourId: number, languageId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: tourLanguages.languageId })
    .from(tourLanguages)
    .where(and(eq(tourLanguages.tourId, tourId), eq(tourLanguages.languageId, languageId)));
  return row !== undefined;
}

/**
 * Hands an order and every document of it to `accountId`: an order staff booked for a request
 * belongs to the requester, so its documents (and the events they raise) are the requester's.
 */
export async function passOrderToAccount(db: DbOrTx, orderId: number, accountId: number): Promise<void> {
  await db.update(orders).set({ accountId }).where(eq(orders.id, orderId));
  await db.update(documents).set({ accountId }).where(eq(documents.orderId, orderId));
}
