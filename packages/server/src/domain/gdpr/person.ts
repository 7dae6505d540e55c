// What is stored about one person (ADR 0015, docs/adr/0015-personal-data-scope-and-gdpr.md):
// the customer row, the orders and requests that name it, the attendees on those orders, the
// contacts on those requests, and the documents of both. Shared by export and erase.
import type { DbOrTx } from '../../db/client.ts';
import type { CustomerRow } from '../../db/repositories/customers.ts';
import { countCustomerRecords, erasureOfCustomer, recordsOfCustomer, type CustomerRecordRows } from '../../db/repositories/gdpr.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { findCustomer } from '../customers/internal.ts';
import { visibleDocuments } from '../documents/internal.ts';
import { readScope, type AccountPrincipal, type Principal } from '../principal.ts';
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

export interface PersonRecords extends CustomerRecordRows {
  /** Whether every record of the person is in the list (false: some lie outside the caller's museums). */
  complete: boolean;
}

/** The person's records the principal may see (`all` = no scope: the erasure's view). */
export async function personRecords(db: DbOrTx, customerId: number, p: AccountPrincipal, all = false): Promise<PersonRecords> {
  const reader = personReader(p);
  // The orders rule is the one of the orders area (orders/internal.ts visibleOrders).
  const rows = await recordsOfCustomer(
    db,
    customerId,
    all ? 'all' : { orders: readScope(reader, 'orders'), requests: visibleRequests(reader), documents: visibleDocuments(reader) },
  );
  let complete = true;
  if (!all) {
    const n = await countCustomerRecords(db, customerId);
    complete = n.orders === rows.orders.length && n.requests === rows.requests.length;
  }
  return { ...rows, complete };
}

export async function erasureOf(db: DbOrTx, customerId: number) {
  return erasureOfCustomer(db, customerId);
}
