// Shared lookups of the requests area: who may see which request, loading requests with their
// items, and the guard every state change goes through.
import type { DbOrTx } from '../../db/client.ts';
import { findRequestInScope, itemsOfRequests, requestById, type RequestRow } from '../../db/repositories/requests.ts';
import type { RecordScope } from '../../db/repositories/scope.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { readScope, type AccountPrincipal, type Principal } from '../principal.ts';

export type { RequestRow };
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
 * The requests a caller may see. Resellers see only their own; users with requests:read see
 * their own and those touching a museum of their scope (empty scope = all). Anything else is
 * answered 404 (never reveal existence).
 */
export function visibleRequests(p: Principal): RecordScope {
  return readScope(p, 'requests', { ownToo: true });
}

/** The caller's request, optionally locked FOR UPDATE (state changes serialise on the row). */
export async function findRequest(db: DbOrTx, ctx: Ctx, id: number, forUpdate = false): Promise<RequestRow> {
  const row = await findRequestInScope(db, id, visibleRequests(ctx.principal), forUpdate);
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
  const items = await itemsOfRequests(db, rows.map((r) => r.id));
  return rows.map((r) => ({
    ...r,
    items: items.filter((i) => i.requestId === r.id).map(({ requestId: _, ...i }) => i),
  }));
}

/** Re-reads one request by id (after a write) without the visibility filter. */
export async function reload(db: DbOrTx, id: number): Promise<RequestView> {
  const row = await requestById(db, id);
  if (!row) throw notFound('request');
  return (await loadViews(db, [row]))[0]!;
}
