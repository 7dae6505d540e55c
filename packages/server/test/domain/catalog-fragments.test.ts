// Row fragments (domain/catalog/fragments.ts, docs/adr/0022-catalogue-read-path.md): a page
// is read as ids and row versions, then the rows whose JSON is not kept are fetched by id. A row
// changed between the two statements must not be used, or the answer would mix two states of the
// catalogue: the page is read again in one statement, and nothing of that round is kept. Control:
// without a change in between, the fetched rows' JSON is kept and the next read uses it without
// fetching.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RowCache } from '../../src/cache/rows.ts';
import { loadConfig } from '../../src/config.ts';
import { listTickets, listTicketsJson } from '../../src/domain/catalog/listTickets.ts';
import type { View } from '../../src/domain/catalog/views.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { anonymous } from '../../src/domain/principal.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase();
after(() => database.drop());

test('a row changed between the page and its fetch: the page is read again, nothing is kept', async () => {
  const db = database.db;
  const m = await f.museum(db);
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) ids.push((await f.ticket(db, { museumId: m.id, title: { de: `Karte ${i}`, en: `Ticket ${i}` } })).id);
  const ctx: Ctx = { db, principal: anonymous, clock: new ManualClock('2026-03-23T08:00:00Z'), config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }) };
  // A handle on the same pool whose second statement first lets a writer change a ticket.
  let statements = 0;
  const racing = {
    $client: {
      query: async (q: unknown) => {
        if (++statements === 2) await database.pool.query('update tickets set price_cents = 4242 where id = $1', [ids[1]]);
        return database.pool.query(q as never);
      },
    },
  };
  const store = new RowCache(() => true);
  const out = { fragments: store, render: (v: View) => JSON.stringify(v) };
  const page = await listTicketsJson({ ...ctx, db: racing as never }, {}, out);
  assert.equal(statements, 3, 'the page, the fetch of the rows not kept, the page again');
  const plain = await listTickets(ctx, {});
  assert.deepEqual(page.items, plain.items.map((v) => JSON.stringify(v)), 'the answer is the state after the change, whole');
  assert.deepEqual(page.meta, plain.meta);
  assert.match(page.items[1]!, /"price_cents":4242/);
  assert.equal(store.lru.size, 0, 'nothing kept from a round that saw two states');

  // Control: no change in between. The rows are fetched once, kept, and then used.
  const first = await listTicketsJson(ctx, {}, out);
  assert.equal(store.lru.size, 3);
  const hits = store.hits;
  const second = await listTicketsJson(ctx, {}, out);
  assert.equal(store.hits, hits + 3, 'the second read used the kept JSON');
  assert.deepEqual(second, first);
  assert.deepEqual(second.items, plain.items.map((v) => JSON.stringify(v)));
});
