// A caller's reach as plain data: the domain decides it by its rules (domain/principal.ts
// readScope, customers/scope.ts), the repositories turn it into a WHERE clause. So the rule is
// read in one place without SQL, and the SQL is written in one place without rules.
import { eq, or, sql, type Column, type SQL } from 'drizzle-orm';

export type RecordScope =
  | { kind: 'none' }
  | { kind: 'all' }
  /** The records of one account. */
  | { kind: 'account'; accountId: number }
  /** The records touching one of the museums, and those of `alsoAccountId` when given. */
  | { kind: 'museums'; museumIds: number[]; alsoAccountId?: number };

/** `'{1,2}'::integer[]` of trusted integers. */
export function intArray(ids: number[]): SQL {
  return sql.raw(`'{${ids.map(Number).join(',')}}'::integer[]`);
}

/** The scope as a condition over a table with `account_id` and `museum_ids`. */
export function scopeWhere(table: { accountId: Column; museumIds: Column }, s: RecordScope): SQL {
  switch (s.kind) {
    case 'none':
      return sql`false`;
    case 'all':
      return sql`true`;
    case 'account':
      return eq(table.accountId, s.accountId);
    case 'museums': {
      const touching = sql`${table.museumIds} && ${intArray(s.museumIds)}`;
      return s.alsoAccountId === undefined ? touching : or(eq(table.accountId, s.alsoAccountId), touching)!;
    }
  }
}
