// A cheap fingerprint of everything the API can change: per table of the public schema its row
// count and the newest xmin. An insert or update gives a row a newer xmin, a delete lowers the
// count, and a write that rolled back leaves neither, which is exactly "unchanged" for a rejected
// request (a rolled-back attempt is allowed; a committed partial write is not).
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';

export async function fingerprinter(database: Database): Promise<() => Promise<string>> {
  const res = await database.db.execute<{ t: string }>(
    sql`select table_name as t from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '%drizzle%'
        order by table_name`,
  );
  const tables = res.rows.map((r) => r.t);
  if (tables.length < 10) throw new Error(`fingerprint: only ${tables.length} tables found`);
  const query = tables
    .map((t) => `select '${t}' as t, count(*)::int as n, coalesce(max(xmin::text::bigint), 0) as x from "${t}"`)
    .join(' union all ');
  return async () => {
    const r = await database.pool.query<{ t: string; n: number; x: string }>(query);
    // Sorted: a union's rows come in any order (PostgreSQL 15 may run its parts in parallel), and an
    // equal set in another order is no change.
    return r.rows.map((row) => `${row.t}:${row.n}:${row.x}`).sort().join(' ');
  };
}
