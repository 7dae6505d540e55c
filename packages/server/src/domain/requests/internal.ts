// Shared lookups of the requests area: who may see which request, loading requests with their
// items, and the guard every state change goes through.
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { museums, requestItems, requests, tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { hasRight, type AccountPrincipal, type Principal } from '../principal.ts';

export type RequestRow = typeof requests.$inferSelect;
export type RequestStatus = 'pending' | 'accepted' | 'declined' | 'withdrawn';

export interface RequestItemView {
  tourId: number;
  languageId: number;
  startAt: Date;
  /** The museum's zone: start times are shown in it. */
  zone: string;
}
export interface RequestView extends RequestRow {
  items: RequestItemView[];
}

/** Reseller and user accounts write requests; anonymous callers and public tokens never do. */
export function requestWriter(p: Principal): AccountPrincipal {
  if (p.kind !== 'account') throw new DomainError('UNAUTHORIZED', 'authentication error; no customer or no user present');
  if (p.access === 'public') throw new DomainError('FORBIDDEN', 'a public token may not write requests');
  return p;
}

/**
 * The requests a caller may see, as a SQL condition. Resellers see only their own; users with
 * requests:read see their own and those touching a museum of their scope (empty scope = all).
 * Anything else is answered 404 (never reveal existence).
 */
export function visibleRequests(p: Principal): SQL {
  if (p.kind !== 'account') return sql`false`;
  if (p.access === 'reseller') return eq(requests.accountId, p.accountId);
  if (p.access === 'user' && hasRight(p, 'requests', 'read')) {
    if (p.museumIds.length === 0) return sql`true`;
    const scope = sql`${requests.museumIds} && ${sql.raw(`'{${p.museumIds.map(Number).join(',')}}'::integer[]`)}`;
    return or(eq(requests.accountId, p.accountId), scope)!;
  }
  return sql`false`;
}

/** The caller's request, optionally locked FOR UPDATE (state changes serialise on the row). */
export async function findRequest(db: DbOrTx, ctx: Ctx, id: number, forUpdate = false): Promise<RequestRow> {
  const q = db.select().from(requests).where(and(eq(requests.id, id), visibleRequests(ctx.principal)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('request');
  return row;
}

/** Only a pending request changes state; every verb checks this on the locked row. */
export function assertPending(row: RequestRow): void {
  if (row.status !== 'pending') {
    throw new DomainError('REQUEST_NOT_PENDING', `request is ${row.status} and can no longer change`);
  }
}

export async function loadViews(db: DbOrTx, rows: RequestRow[]): Promise<RequestView[]> {
  if (rows.length === 0) return [];
  const items = await db
    .select({ requestId: requestItems.requestId, tourId: requestItems.tourId, languageId: requestItems.languageId, startAt: requestItems.startAt, zone: museums.timeZone })
    .from(requestItems)
    .innerJoin(tours, eq(tours.id, requestItems.tourId))
    .innerJoin(museums, eq(museums.id, tours.museumId))
    .where(inArray(requestItems.requestId, rows.map((r) => r.id)))
    .orderBy(asc(requestItems.id));
  return rows.map((r) => ({
    ...r,
    items: items.filter((i) => i.requestId === r.id).map(({ requestId: _, ...i }) => i),
  }));
}

/** Re-reads one request by id (after a write) without the visibility filter. */
export async function reload(db: DbOrTx, id: number): Promise<RequestView> {
  const [row] = await db.select().from(requests).where(eq(requests.id, id));
  if (!row) throw notFound('request');
  return (await loadViews(db, [row]))[0]!;
}
