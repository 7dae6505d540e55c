// Statements of customers (personal data): lookups within a caller's scope, the race-safe
// insert, updates and listings.
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { nameStarts } from './nameSearch.ts';
import type { DbOrTx } from '../client.ts';
import { accounts, customers, orders, requests } from '../schema/index.ts';
import { intArray, type RecordScope } from './scope.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomer = typeof customers.$inferInsert;

/**
 * The scope over `customers`. For a museum scope (domain/customers/scope.ts): the customers of
 * `alsoAccountId`, those with an order or a request touching one of the museums, and those
 * created by an account whose whole (non-empty) museum scope lies inside these museums.
 */
function scopeWhere(s: RecordScope): SQL | undefined {
  switch (s.kind) {
    case 'none':
      return sql`false`;
    case 'all':
      return undefined;
    case 'account':
      return eq(customers.accountId, s.accountId);
    case 'museums': {
      const mine = intArray(s.museumIds);
      return sql`(${customers.accountId} = ${s.alsoAccountId ?? -1}
        or exists (select 1 from ${orders} where ${orders.customerId} = ${customers.id} and ${orders.museumIds} && ${mine})
        or exists (select 1 from ${requests} where ${requests.customerId} = ${customers.id} and ${requests.museumIds} && ${mine})
        or exists (select 1 from ${accounts} where ${accounts.id} = ${customers.accountId}
          and cardinality(${accounts.museumIds}) > 0 and ${accounts.museumIds} <@ ${mine}))`;
    }
  }
}

export async function customerByIdInScope(db: DbOrTx, id: number, scope: RecordScope, opts: { forUpdate?: boolean } = {}): Promise<CustomerRow | null> {
  const q = db.select().from(customers).where(and(eq(customers.id, id), scopeWhere(scope)));
  const [row] = await (opts.forUpdate ? q.for('update') : q);
  return row ?? null;
}

/** The customer with this foreign_id within the scope: `preferAccountId`'s own first, then the oldest. */
export async function customerByForeignIdInScope(
  db: DbOrTx,
  foreignId: string,
  scope: RecordScope,
  preferAccountId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRow | null> {
  const q = db
    .select()
    .from(customers)
    .where(and(eq(customers.foreignId, foreignId), scopeWhere(scope)))
    .orderBy(desc(sql`${customers.accountId} = ${preferAccountId}`), asc(customers.id))
    .limit(1);
  const [row] = await (opts.forUpdate ? q.for('update') : q);
  return row ?? null;
}

/**
 * Inserts a customer unless its account already has one with this foreign_id: then nothing
 * happens (ON CONFLICT waits for a concurrent inserter to commit) and the answer is null.
 */
export async function insertCustomerUnlessKnown(db: DbOrTx, values: NewCustomer): Promise<CustomerRow | null> {
  const [row] = await db
    .insert(customers)
    .values(values)
    .onConflictDoNothing({ target: [customers.accountId, customers.foreignId] })
    .returning();
  return row ?? null;
}

export async function customerOfAccountByForeignId(db: DbOrTx, accountId: number, foreignId: string): Promise<CustomerRow | null> {
  const [row] = await db.select().from(customers).where(and(eq(customers.accountId, accountId), eq(customers.foreignId, foreignId)));
  return row ?? null;
}

export async function updateCustomerRow(db: DbOrTx, id: number, changes: Partial<NewCustomer>): Promise<CustomerRow> {
  const [row] = await db.update(customers).set(changes).where(eq(customers.id, id)).returning();
  return row!;
}

export interface CustomerFilter {
  scope: RecordScope;
  foreignId?: string;
  /** Compared case-insensitively (give it lower-cased). */
  email?: string;
  /** One or two name parts, each the start of the surname or first name (atrium_search_text). */
  name?: string[];
}

function nameWhere(parts: string[]): SQL {
  const [a, b] = parts;
  if (b === undefined) return sql`(${nameStarts(customers.surname, a!)} or ${nameStarts(customers.name, a!)})`;
  return sql`((${nameStarts(customers.surname, a!)} and ${nameStarts(customers.name, b)}) or (${nameStarts(customers.name, a!)} and ${nameStarts(customers.surname, b)}))`;
}

export async function pageOfCustomers(db: DbOrTx, f: CustomerFilter, page: { limit: number; offset: number }): Promise<{ rows: CustomerRow[]; total: number }> {
  const where = and(
    scopeWhere(f.scope),
    f.foreignId !== undefined ? eq(customers.foreignId, f.foreignId) : undefined,
    f.email !== undefined ? eq(sql`lower(${customers.email})`, f.email) : undefined,
    f.name !== undefined && f.name.length > 0 ? nameWhere(f.name) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(customers).where(where).orderBy(asc(customers.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
