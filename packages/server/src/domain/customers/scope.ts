// The one rule for which customers (personal data) an account may see, read, change, export or
// erase (ADR 0015, docs/adr/0015-personal-data-scope-and-gdpr.md). It mirrors the scope of
// orders and requests, so staff of one museum never reach the people of another:
// - a reseller sees the customers its own account created;
// - a user token without a museum scope sees every customer of the instance;
// - a user token scoped to museums sees the customers its own account created, those with an
//   order or a request touching one of its museums, and those created by an account whose whole
//   museum scope lies inside its own ("created within its scope");
// - anybody else sees none.
// Out-of-scope customers are "not found" everywhere (never reveal existence).
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { accounts, customers, orders, requests } from '../../db/schema/index.ts';
import type { Principal } from '../principal.ts';

/** The customers the caller may see, as SQL over `customers`; undefined means "all of them". */
export function visibleCustomers(p: Principal): SQL | undefined {
  if (p.kind !== 'account' || p.access === 'public') return sql`false`;
  if (p.access === 'reseller') return eq(customers.accountId, p.accountId);
  if (p.museumIds.length === 0) return undefined;
  const mine = sql.raw(`'{${p.museumIds.map(Number).join(',')}}'::integer[]`);
  return sql`(${customers.accountId} = ${p.accountId}
    or exists (select 1 from ${orders} where ${orders.customerId} = ${customers.id} and ${orders.museumIds} && ${mine})
    or exists (select 1 from ${requests} where ${requests.customerId} = ${customers.id} and ${requests.museumIds} && ${mine})
    or exists (select 1 from ${accounts} where ${accounts.id} = ${customers.accountId}
      and cardinality(${accounts.museumIds}) > 0 and ${accounts.museumIds} <@ ${mine}))`;
}

/** `where` for one customer id inside the caller's scope. */
export function visibleCustomer(p: Principal, id: number): SQL {
  return and(eq(customers.id, id), visibleCustomers(p))!;
}
