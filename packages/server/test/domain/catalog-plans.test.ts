// How PostgreSQL plans a large catalogue's page (issue #19, docs/adr/0034-catalogue-plans-and-search-index.md).
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

test('a large catalogue page settles on a generic plan after its first custom plans', async () => {
  const m = await f.museum(database.db);
  await database.pool.query(
    `insert into tickets (museum_id, title, ticket_type, price_cents, first_entry, last_entry, entry_duration)
     select $1, jsonb_build_object('de', 'Karte ' || g, 'en', 'Ticket ' || g), 'time_slot', 1000, 540, 1050, 30
       from generate_series(1, 2000) g`,
    [m.id],
  );
  await database.pool.query('analyze tickets');
  const ctx: Ctx = { db: database.db, principal: anonymous, clock: new ManualClock('2026-03-23T08:00:00Z'), config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }) };
  const out = { fragments: new RowCache(() => true), render: (v: View) => JSON.stringify(v) };
  let first: Awaited<ReturnType<typeof listTicketsJson>> | undefined;
  for (let i = 0; i < 12; i++) {
    const page = await listTicketsJson(ctx, { page: 2 }, out);
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

test('the trigram indexes keep no pending list (fastupdate off, migration 0030)', async () => {
  const { rows } = await database.pool.query<{ name: string; options: string[] | null }>(
    `select c.relname as name, c.reloptions as options from pg_class c join pg_am a on a.oid = c.relam
      where a.amname = 'gin' and c.relname like '%\\_title\\_trgm'`,
  );
  // Where pg_trgm is missing (migration 0025) there is no index to check.
  if (rows.length === 0) return;
  assert.deepEqual(rows.map((r) => r.name).sort(), ['events_title_trgm', 'exhibitions_title_trgm', 'museums_title_trgm', 'tickets_title_trgm', 'tours_title_trgm']);
  for (const r of rows) assert.deepEqual(r.options, ['fastupdate=off'], r.name);
});
