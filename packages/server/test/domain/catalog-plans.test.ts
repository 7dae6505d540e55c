// How PostgreSQL plans a large catalogue's page (docs/adr/0022-catalogue-read-path.md).
// A page's statement is prepared once per connection; PostgreSQL plans it afresh for each of its
// first five executions and then keeps a generic plan if that costs no more than the custom ones.
// With `limit $n offset $m` it never did for 2,000 tickets (a custom plan costed 25 rows, the
// generic one a tenth of the table), and every request paid for planning again. The pool here has
// one connection, so pg_prepared_statements shows that connection's plans.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RowCache } from '../../src/cache/rows.ts';
import { loadConfig } from '../../src/config.ts';
import { listTicketsJson } from '../../src/domain/catalog/listTickets.ts';
import type { View } from '../../src/domain/catalog/views.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { anonymous } from '../../src/domain/principal.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase({ max: 1 });
after(() => database.drop());

const m = await f.museum(database.db);
await database.pool.query(
  `insert into tickets (museum_id, title, ticket_type, price_cents, first_entry, last_entry, entry_duration)
   select $1, jsonb_build_object('de', 'Karte ' || g, 'en', 'Ticket ' || g), 'time_slot', 1000, 540, 1050, 30
     from generate_series(1, 2000) g`,
  [m.id],
);
// As autovacuum leaves a table soon after such an import: analyzed, its pages all-visible.
await database.pool.query('vacuum analyze tickets');
const ctx: Ctx = { db: database.db, principal: anonymous, clock: new ManualClock('2026-03-23T08:00:00Z'), config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }) };
const out = () => ({ fragments: new RowCache(() => true), render: (v: View) => JSON.stringify(v) });

test('a large catalogue page settles on a generic plan after its first custom plans', async () => {
  const out1 = out();
  let first: Awaited<ReturnType<typeof listTicketsJson>> | undefined;
  for (let i = 0; i < 12; i++) {
    const page = await listTicketsJson(ctx, { page: 2 }, out1);
    first ??= page;
    assert.deepEqual(page, first, 'every plan gives the same page');
  }
  assert.equal(first!.meta.total_count, 2000);
  assert.equal(first!.items.length, 25);
  const { rows } = await database.pool.query<{ statement: string; generic_plans: number; custom_plans: number }>(
    `select statement, generic_plans::int, custom_plans::int from pg_prepared_statements where name like 'atrium_catalog_%' and statement like '%count(*)%'`,
  );
  assert.equal(rows.length, 1, 'one page statement, prepared on the one connection');
  const [page] = rows;
  assert.ok(page!.custom_plans <= 6, `planned afresh ${page!.custom_plans} times in 12 executions`);
  assert.ok(page!.generic_plans >= 6, `the generic plan served ${page!.generic_plans} of 12 executions`);
});

// Migration 0031, docs/adr/0022-catalogue-read-path.md: the shop's count and the ids of a
// page (with the rows its offset skips) come from the channel's partial index, two index scans per
// page, instead of evaluating the visibility rule on every row of the table. Index statistics are
// per backend until flushed; the pool's one connection flushes its own before they are read.
test('a page of tickets counts and skips its offset in the channel index alone (migration 0031)', async () => {
  // idx_scan: scans of the index; idx_tup_fetch: table rows fetched through it (none in an
  // index-only scan of all-visible pages).
  const stats = async () => {
    await database.pool.query('select pg_stat_force_next_flush()');
    await new Promise((r) => setTimeout(r, 10)); // the flush happens when the backend goes idle
    const { rows } = await database.pool.query<{ scans: number; fetched: number }>(
      `select idx_scan::int as scans, idx_tup_fetch::int as fetched from pg_stat_user_indexes where indexrelname = 'tickets_shop_page'`,
    );
    assert.equal(rows.length, 1, 'the index exists');
    return rows[0]!;
  };
  const before = await stats();
  const out1 = out();
  for (const page of [1, 40, 81]) {
    const got = await listTicketsJson(ctx, { page }, out1);
    assert.equal(got.meta.total_count, 2000);
    assert.equal(got.items.length, page === 81 ? 0 : 25);
  }
  const ids = (await listTicketsJson(ctx, { page: 40 }, out1)).items.map((t) => (JSON.parse(t) as { id: number }).id);
  const { rows: all } = await database.pool.query<{ id: number }>('select id from tickets order by id');
  assert.deepEqual(ids, all.slice(975, 1000).map((r) => r.id), 'page 40 holds tickets 976-1000 in id order');
  // Pages 1 and 40 twice: a count and an id scan each; page 81 (past the end) its ids and a
  // count of its own.
  const after = await stats();
  assert.ok(after.scans - before.scans >= 8, `the index served ${after.scans - before.scans} scans for 4 pages`);
  assert.equal(after.fetched - before.fetched, 0, 'no table row was read through the index: the offset skipped rows in the index alone');
});

test('the trigram indexes keep no pending list (fastupdate off, migration 0030)', async () => {
  const { rows } = await database.pool.query<{ name: string; options: string[] | null }>(
    `select c.relname as name, c.reloptions as options from pg_class c join pg_am a on a.oid = c.relam
      where a.amname = 'gin' and c.relname like '%\\_title\\_search\\_trgm'`,
  );
  // Where pg_trgm is missing (migration 0025) there is no index to check.
  if (rows.length === 0) return;
  assert.deepEqual(rows.map((r) => r.name).sort(), ['events_title_search_trgm', 'exhibitions_title_search_trgm', 'museums_title_search_trgm', 'tickets_title_search_trgm', 'tours_title_search_trgm']);
  for (const r of rows) assert.deepEqual(r.options, ['fastupdate=off'], r.name);
});
