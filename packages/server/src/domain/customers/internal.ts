// Shared lookups of the customer area: who may see which customer, finding a record by id or
// foreign_id, and the race-safe insert behind every create path.
import type { DbOrTx } from '../../db/client.ts';
import {
  customerByForeignIdInScope, customerByIdInScope, customerOfAccountByForeignId, insertCustomerUnlessKnown, type CustomerRow,
} from '../../db/repositories/customers.ts';
import type { RecordScope } from '../../db/repositories/scope.ts';
import { DomainError, forbidden, invalid } from '../errors.ts';
import type { AccountPrincipal, Principal } from '../principal.ts';
import { isoInZone } from '../time.ts';
import { visibleCustomers } from './scope.ts';
import { CUSTOMER_FIELDS, EMPTY_CUSTOMER, validateCustomer, type CustomerFields } from './validation.ts';

export type CustomerRecord = Omit<CustomerFields, 'name' | 'surname' | 'email'> & {
  id: number;
  name: string;
  surname: string;
  email: string;
  created_at: string;
  updated_at: string;
};

export const SAVE_FAILED = 'customer could not be saved';

/** Customers belong to accounts; only user and reseller accounts work with them. */
export function writer(p: Principal): AccountPrincipal {
  if (p.kind !== 'account') throw new DomainError('UNAUTHORIZED', 'authentication error; no customer or no user present');
  if (p.access === 'public') throw forbidden('a public token may not use customers');
  return p;
}

/** Which customers the caller may reach: the one rule in scope.ts (ADR 0015). */
export function scope(p: AccountPrincipal): RecordScope {
  return visibleCustomers(p);
}

const MAX_ID = 2_147_483_647;

/**
 * Finds a visible customer by the numeric id, falling back to foreign_id (go~mus: "first tries the
 * numeric id, then foreign_id"). A foreign_id is the caller's own key, so the caller's account is
 * preferred; a user token may also reach other accounts' keys within its scope (oldest first).
 */
export async function findCustomer(
  db: DbOrTx,
  p: AccountPrincipal,
  ref: string | number,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRow | null> {
  const text = String(ref).trim();
  if (/^\d{1,10}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_ID) {
    const row = await customerByIdInScope(db, Number(text), scope(p), opts);
    if (row) return row;
  }
  return findByForeignId(db, p, text, opts);
}

export async function findByForeignId(
  db: DbOrTx,
  p: AccountPrincipal,
  foreignId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRow | null> {
  if (foreignId === '') return null;
  return customerByForeignIdInScope(db, foreignId, scope(p), p.accountId, opts);
}

export function fieldsOf(row: CustomerRow): CustomerFields {
  return {
    foreign_id: row.foreignId,
    salutation: row.salutation,
    title: row.title,
    name: row.name,
    surname: row.surname,
    email: row.email,
    phone: row.phone,
    institution: row.institution,
    street: row.street,
    zip: row.zip,
    city: row.city,
    country: row.country,
    locale: row.locale,
  };
}

/** Column values for a validated record (name, surname and email are known to be present). */
export function columnsOf(c: CustomerFields) {
  return {
    foreignId: c.foreign_id,
    salutation: c.salutation,
    title: c.title,
    name: c.name!,
    surname: c.surname!,
    email: c.email!,
    phone: c.phone,
    institution: c.institution,
    street: c.street,
    zip: c.zip,
    city: c.city,
    country: c.country,
    locale: c.locale,
  };
}

export function toRecord(row: CustomerRow, zone: string): CustomerRecord {
  return {
    id: row.id,
    ...fieldsOf(row),
    name: row.name,
    surname: row.surname,
    email: row.email,
    created_at: isoInZone(row.createdAt, zone),
    updated_at: isoInZone(row.updatedAt, zone),
  };
}

/**
 * A repeated create "has the same content" when every field it names equals the stored value.
 * Fields it leaves out are not compared, so a retry of an older, shorter create still replays
 * after a later PUT added, say, a phone number.
 */
export function sameContent(given: Partial<CustomerFields>, row: CustomerRow): boolean {
  const stored = fieldsOf(row);
  return CUSTOMER_FIELDS.every((f) => given[f] === undefined || given[f] === stored[f]);
}

/** Validates a new record built from the given fields; throws with `prefix`ed messages. */
export function checkNew(given: Partial<CustomerFields>, fail: (errors: string[]) => DomainError): CustomerFields {
  const record = { ...EMPTY_CUSTOMER, ...given };
  const errors = validateCustomer(record);
  if (errors.length) throw fail(errors);
  return record;
}

export const saveFailed = (errors: string[]) => invalid(SAVE_FAILED, errors);

/**
 * Inserts a customer of the caller's account. A foreign_id already known in this account does not
 * raise: the insert does nothing (ON CONFLICT on the unique index waits for a concurrent inserter
 * to commit) and the winner's row is returned with `created: false`. Not raising matters inside
 * an order transaction, which a unique violation would abort.
 */
export async function insertOrFind(
  db: DbOrTx,
  p: AccountPrincipal,
  record: CustomerFields,
  now: Date,
): Promise<{ row: CustomerRow; created: boolean }> {
  const row = await insertCustomerUnlessKnown(db, { accountId: p.accountId, ...columnsOf(record), createdAt: now, updatedAt: now });
  if (row) return { row, created: true };
  const existing = await customerOfAccountByForeignId(db, p.accountId, record.foreign_id!);
  // Customers are never deleted, so under READ COMMITTED the conflicting row is visible to this
  // new statement once its inserter committed. Only a snapshot-isolated caller could miss it.
  if (!existing) {
    throw new DomainError('SERVICE_UNAVAILABLE', 'customer is being created concurrently; retry', { retryAfter: 1 });
  }
  return { row: existing, created: false };
}

export const foreignIdConflict = () =>
  new DomainError('FOREIGN_ID_CONFLICT', 'foreign_id is already used by a customer with different content');
