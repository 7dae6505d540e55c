// The one rule for which customers (personal data) an account may see, read, change, export or
// erase (ADR 0015, docs/adr/0015-personal-data-scope-and-gdpr.md). It mirrors the scope of
// orders and requests, so staff of one museum never reach the people of another:
// - a reseller (and the visitor shop) sees the customers its own account created;
// - a user token without a museum scope sees every customer of the instance;
// - a user token scoped to museums sees the customers its own account created, those with an
//   order or a request touching one of its museums, and those created by an account whose whole
//   museum scope lies inside its own ("created within its scope");
// - anybody else sees none.
// Out-of-scope customers are "not found" everywhere (never reveal existence).
import type { RecordScope } from '../../db/repositories/scope.ts';
import type { Principal } from '../principal.ts';

/**
 * The customers the caller may see. A museum scope stands for the rule above (own account,
 * orders or requests touching the museums, accounts confined to them), which
 * db/repositories/customers.ts applies.
 */
export function visibleCustomers(p: Principal): RecordScope {
  if (p.kind !== 'account' || p.access === 'public') return { kind: 'none' };
  if (p.access === 'reseller' || p.access === 'shop') return { kind: 'account', accountId: p.accountId };
  if (p.museumIds.length === 0) return { kind: 'all' };
  return { kind: 'museums', museumIds: p.museumIds, alsoAccountId: p.accountId };
}
