// A catalogue list's total kept per condition in the master-data memo (db/repositories/catalog/pages.ts#counted,
// docs/adr/0022-catalogue-read-path.md): the pages, locales and page sizes of one condition share
// one count; the answer is the plain path's; and a kept total is used only at the catalogue
// version it was counted at, which the page's own statement reads, so a memo that missed a
// change (its notice not yet arrived) still answers the new total.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { RowCache } from '../../src/cache/rows.ts';
import { loadConfig } from '../../src/config.ts';
import { tickets } from '../../src/db/schema/index.ts';
import { listMuseums } from '../../src/domain/catalog/listMuseums.ts';
import { listTickets, listTicketsJson, type ListTicketsInput } from '../../src/domain/catalog/listTickets.ts';
import type { View } from '../../src/domain/catalog/views.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { anonymous } from '../../src/domain/principal.ts';
import { freshDatabase } from '../helpers/db.ts';
import { StaleMemo } from '../helpers/stale-memo.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase();
after(() => database.drop());
const db = database.db;
const plain: Ctx = { db, principal: anonymous, clock: new ManualClock('2026-03-23T08:00:00Z'), config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }) };

const memoOf = () => new StaleMemo('pageTotal|');

const museum = await f.museum(db);
const other = await f.museum(db, { title: { de: 'Zweites Haus', en: 'Second house' } });
const ids: number[] = [];
for (let i = 0; i < 7; i++) ids.push((await f.ticket(db, { museumId: museum.id, title: { de: `Karte ${i}`, en: `Ticket ${i}` } })).id);
for (let i = 0; i < 3; i++) await f.ticket(db, { museumId: other.id, title: { de: `Andere ${i}`, en: `Other ${i}` } });
const out = () => ({ fragments: new RowCache(() => true), render: (v: View) => JSON.stringify(v) });

/** The page with the memo, both ways (views and row JSON), against the plain path's. */
async function same(memo: StaleMemo, input: ListTicketsInput): Promise<number> {
  const expected = await listTickets(plain, input);
  const kept = { ...plain, masterData: memo };
  assert.deepEqual(await listTickets(kept, input), expected, JSON.stringify(input));
  const json = await listTicketsJson(kept, input, out());
  assert.deepEqual(json, { ...expected, items: expected.items.map((v) => JSON.stringify(v)) }, JSON.stringify(input));
  return expected.meta.total_count;
}

test('the pages, locales and sizes of one condition share one count, and answer as the plain path', async () => {
  const memo = memoOf();
  for (const input of [{ per_page: 3 }, { per_page: 3, page: 2 }, { per_page: 3, page: 3 }, { per_page: 5, locale: 'en' }, {}]) {
    assert.equal(await same(memo, input), 10);
  }
  assert.equal(memo.loads, 1, 'one count for every page of the condition');
  assert.equal(await same(memo, { by_museum_ids: [other.id], per_page: 2 }), 3);
  assert.equal(await same(memo, { by_museum_ids: [museum.id], per_page: 2, page: 4 }), 7);
  assert.equal(memo.loads, 3, 'another filter value is another condition');
  // A search counts in its window (no count apart): nothing kept.
  await same(memo, { q: 'Karte' });
  assert.equal(memo.loads, 3);
  // A page past the end has no row to carry the total: its own count, as without the memo.
  assert.equal(await same(memo, { by_museum_ids: [other.id], per_page: 2, page: 9 }), 3);

  // Another list that counts apart keeps its own total the same way.
  const museums = await listMuseums(plain, {});
  assert.deepEqual(await listMuseums({ ...plain, masterData: memo }, {}), museums);
  assert.deepEqual(await listMuseums({ ...plain, masterData: memo }, {}), museums);
  assert.equal(memo.loads, 4);
});

test('a kept total is what the page answers while the catalogue version is the same', async () => {
  const memo = memoOf();
  await same(memo, { per_page: 3 });
  const [[key, kept]] = memo.kept<{ total: number; version: number }>() as [[string, { total: number; version: number }]];
  // Not a state the service can reach: it shows that the statement took the kept total.
  memo.values.set(key, { ...kept, total: 999 });
  const page = await listTickets({ ...plain, masterData: memo }, { per_page: 3, page: 2 });
  assert.equal(page.meta.total_count, 999);
  assert.equal(page.items.length, 3);
});

test('a kept total of an older catalogue version is not used', async () => {
  const memo = memoOf();
  assert.equal(await same(memo, { per_page: 3 }), 10);
  assert.equal(await same(memo, { by_museum_ids: [museum.id], per_page: 3 }), 7);
  // Changes the memo never hears of: a ticket leaves the list, two come in.
  await db.update(tickets).set({ active: false }).where(eq(tickets.id, ids[2]!));
  await f.ticket(db, { museumId: museum.id, title: { de: 'Neu 1', en: 'New 1' } });
  await f.ticket(db, { museumId: museum.id, title: { de: 'Neu 2', en: 'New 2' } });
  assert.equal(await same(memo, { per_page: 3 }), 11);
  assert.equal(await same(memo, { per_page: 3, page: 4 }), 11);
  assert.equal(await same(memo, { by_museum_ids: [museum.id], per_page: 3, page: 2 }), 8);
  assert.equal(memo.loads, 2, 'the stale totals were not loaded again: the statement counted');
});
