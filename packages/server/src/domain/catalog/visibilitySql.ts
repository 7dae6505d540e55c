// The SQL twin of visibility.ts, for lists: pagination and total_count must be computed by the
// database, so the rule has to be a WHERE clause too. test/domain/catalog-visibility.test.ts
// checks that both agree on every combination of caller and product.
import { and, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../principal.ts';
import { bound } from './pageQuery.ts';

export interface SellableColumns {
  museumId: AnyPgColumn;
  active: AnyPgColumn;
  salesChannels: AnyPgColumn;
  resellerAccountIds: AnyPgColumn;
}

/**
 * Museum scope only (museums, exhibitions, quotas): undefined means "every museum". One array
 * parameter, so the statement text is the same for every scope (prepared statements, pageQuery.ts).
 */
export function inScopeSql(p: Principal, museumId: AnyPgColumn): SQL | undefined {
  return p.museumIds.length > 0 ? sql`${museumId} = any(${bound(p.museumIds)}::int[])` : undefined;
}

/** What the text of `visibleSql` and `inScopeSql` depends on, for a statement's shape key (pageQuery.ts#shaped). */
export function visibleShape(p: Principal): string {
  return `${p.kind === 'anonymous' ? 'anon' : p.access}${p.museumIds.length > 0 ? ':scoped' : ''}`;
}

/** `isVisibleTo` as a condition. */
export function visibleSql(p: Principal, t: SellableColumns): SQL {
  const parts: Array<SQL | undefined> = [sql`${t.active} = true`, inScopeSql(p, t.museumId)];
  if (p.kind === 'anonymous' || p.access === 'public') {
    parts.push(sql`'shop' = any(${t.salesChannels})`);
  } else if (p.access === 'reseller') {
    parts.push(
      sql`'reseller' = any(${t.salesChannels})`,
      sql`(cardinality(${t.resellerAccountIds}) = 0 or ${bound(p.accountId)}::int = any(${t.resellerAccountIds}))`,
    );
  }
  return and(...parts)!;
}
