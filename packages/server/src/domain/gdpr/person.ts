// What is stored about one person (ADR 0015, docs/adr/0015-personal-data-scope-and-gdpr.md):
// the customer row, the orders and requests that name it, the attendees on those orders, the
// contacts on those requests, and the documents of both. Shared by export and erase.
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { customerErasures, documents, orderItems, orders, requests } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { findCustomer, type CustomerRow } from '../customers/internal.ts';
import { metaColumns, visibleDocuments } from '../documents/internal.ts';
import { visibleOrdersWhere } from '../../db/repositories/orders.ts';
import { orderScope } from '../orders/internal.ts';
import type { AccountPrincipal, Principal } from '../principal.ts';
import { visibleRequests } from '../requests/internal.ts';

/** Export and erase are staff actions (user tokens, and the command line's system context). */
export function staff(p: Principal): AccountPrincipal {
  if (p.kind !== 'account') throw new DomainError('UNAUTHORIZED', 'authentication error; no customer or no user present');
  if (p.access !== 'user') throw new DomainError('FORBIDDEN', 'only staff (user) tokens may export or erase a person');
  return p;
}

/** The customer, locked when asked, if the caller's customer scope (customers/scope.ts) reaches it. */
export async function findPerson(db: DbOrTx, ctx: Ctx, ref: string | number, forUpdate = false): Promise<CustomerRow> {
  const row = await findCustomer(db, staff(ctx.principal), ref, { forUpdate });
  if (!row) throw notFound('customer');
  return row;
}

/**
 * The caller as a reader of this person's records: the right on the person (customers:read)
 * covers what is stored about them, within the caller's own museum scope. The scope rules are
 * those of the orders, requests and documents areas, applied with their read rights.
 */
export function personReader(p: AccountPrincipal): AccountPrincipal {
  return { ...p, rights: new Set([...p.rights, 'orders:read', 'requests:read', 'documents:read']) };
}

export interface PersonRecords {
  orders: Array<typeof orders.$inferSelect>;
  items: Array<typeof orderItems.$inferSelect>;
  requests: Array<typeof requests.$inferSelect>;
  documents: Array<Omit<typeof documents.$inferSelect, 'content'>>;
  /** Whether every record of the person is in the list (false: some lie outside the caller's museums). */
  complete: boolean;
}

/** The person's records the principal may see (`all` = no scope: the erasure's view). */
export async function personRecords(db: DbOrTx, customerId: number, p: AccountPrincipal, all = false): Promise<PersonRecords> {
  const reader = personReader(p);
  const within = (cond: SQL, scope: SQL) => (all ? cond : and(cond, scope)!);
  const os = await db.select().from(orders).where(within(eq(orders.customerId, customerId), visibleOrdersWhere(orderScope(reader)))).orderBy(asc(orders.id));
  const rs = await db.select().from(requests).where(within(eq(requests.customerId, customerId), visibleRequests(reader))).orderBy(asc(requests.id));
  const orderIds = os.map((o) => o.id);
  const requestIds = rs.map((r) => r.id);
  const items = orderIds.length ? await db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.id)) : [];
  const owners = or(
    orderIds.length ? inArray(documents.orderId, orderIds) : sql`false`,
    requestIds.length ? inArray(documents.requestId, requestIds) : sql`false`,
  )!;
  const docs = orderIds.length + requestIds.length
    ? await db.select(metaColumns).from(documents).where(within(owners, visibleDocuments(reader))).orderBy(asc(documents.id))
    : [];
  let complete = true;
  if (!all) {
    const [n] = (await db.execute<{ o: number; r: number }>(sql`select
      (select count(*)::int from ${orders} where ${orders.customerId} = ${customerId}) o,
      (select count(*)::int from ${requests} where ${requests.customerId} = ${customerId}) r`)).rows;
    complete = n!.o === os.length && n!.r === rs.length;
  }
  return { orders: os, items, requests: rs, documents: docs, complete };
}

export async function erasureOf(db: DbOrTx, customerId: number) {
  const [row] = await db.select().from(customerErasures).where(eq(customerErasures.customerId, customerId));
  return row ?? null;
}
