// The SQL twin of the visibility rule (domain/catalog/visibility.ts), for lists: pagination and
// total_count must be computed by the database, so the rule has to be a WHERE clause too.
// test/domain/catalog-visibility.test.ts checks that both agree on every combination of caller
// and product.
import { and, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { bound } from './shapes.ts';

/** Who reads: what the rule needs of the caller (the domain's Principal fits). */
export type Viewer =
  | { kind: 'anonymous'; access: 'public'; museumIds: readonly number[] }
  | { kind: 'account'; access: string; accountId: number; museumIds: readonly number[] };

export interface SellableColumns {
  museumId: AnyPgColumn;
  active: AnyPgColumn;
  salesChannels: AnyPgColumn;
  resellerAccountIds: AnyPgColumn;
}

/**
 * Museum scope only (museums, exhibitions, quotas): undefined means "every museum". One array
 * parameter, so the statement text is the same for every scope (prepared statements, shapes.ts).
 */
export function inScopeSql(p: Viewer, museumId: AnyPgColumn): SQL | undefined {
  return p.museumIds.length > 0 ? sql`${museumId} = any(${bound(p.museumIds)}::int[])` : undefined;
}

/** What the text of `visibleSql` and `inScopeSql` depends on, for a statement's shape key (shapes.ts#shaped). */
export function visibleShape(p: Viewer): string {
  return `${p.kind === 'anonymous' ? 'anon' : p.access}${p.museumIds.length > 0 ? ':scoped' : ''}`;
}

/** `isVisibleTo` as a condition. */
export function visibleSql(p: Viewer, t: SellableColumns): SQL {
  const parts: Array<SQL | undefined> = [sql`${t.active} = true`, inScopeSql(p, t.museumId)];
  if (p.kind === 'anonymous' || p.access === 'public' || p.access === 'shop') {
    parts.push(sql`'shop' = any(${t.salesChannels})`);
  } else if (p.access === 'reseller') {
    parts.push(
      sql`'reseller' = any(${t.salesChannels})`,
      sql`(cardinality(${t.resellerAccountIds}) = 0 or ${bound(p.accountId)}::int = any(${t.resellerAccountIds}))`,
    );
  }
  return and(...parts)!;
}
