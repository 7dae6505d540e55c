// A page of event dates from the ids kept in the master-data memo (db/repositories/catalog/datesPages.ts#fromKeptIds,
// docs/adr/0022-catalogue-read-path.md): the same answer as the one-statement path, seats live on
// every read, and a memo that missed a catalogue change (its notice not yet arrived) is not used:
// the rows' statement sees another catalogue version and the page is read the plain way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.ts';
import { capacityAllocations, eventDates } from '../../src/db/schema/index.ts';
import { listDates, type ListDatesInput } from '../../src/domain/catalog/listDates.ts';
import { listEventDates } from '../../src/domain/catalog/listEventDates.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { anonymous } from '../../src/domain/principal.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import { StaleMemo } from '../helpers/stale-memo.ts';
import * as f from '../helpers/factories.ts';

const Z = 'Europe/Berlin';
const database = await freshDatabase();
const db = database.db;
// Monday 23 March 2026: the default range is 23–31 March.
const plain: Ctx = { db, principal: anonymous, clock: new ManualClock('2026-03-23T08:00:00Z'), config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }) };

const memoOf = () => new StaleMemo('datePages|');

const museum = await f.museum(db);
const events = [await f.event(db, { museumId: museum.id }), await f.event(db, { museumId: museum.id, title: { de: 'Konzert', en: 'Concert' } })];
const ids: number[] = [];
for (let day = 23; day <= 31; day++) {
  for (const [k, e] of events.entries()) {
    const d = await f.eventDate(db, { eventId: e.id, startAt: zonedInstant(`2026-03-${day}`, 600 + 60 * k, Z), seatsMax: 12 });
    ids.push(d.id);
  }
}
// A second museum, so that every museum's dates are more than a condition keeps (KEPT, 2,000): a
// page past the first 2,000 is read the one-statement way.
const big = await f.museum(db, { title: { de: 'Groß', en: 'Large' } });
const bigEvent = await f.event(db, { museumId: big.id });
await db.execute(sql`insert into event_dates (event_id, start_at, seats_max)
  select ${bigEvent.id}, ${zonedInstant('2026-03-24', 480, Z)}::timestamptz + g * interval '5 minutes', 20 from generate_series(0, 2099) g`);
const small = { by_museum_ids: [museum.id] };
const book = (id: number, quantity: number) =>
  db.insert(capacityAllocations).values({ resource: 'event_date', resourceId: id, slotStart: new Date(), quantity, createdAt: plain.clock.now() });
await book(ids[0]!, 3);

async function same(memo: StaleMemo, input: ListDatesInput): Promise<void> {
  const expected = await listDates(plain, input);
  const actual = await listDates({ ...plain, masterData: memo }, input);
  assert.deepEqual(actual, expected, JSON.stringify(input));
}

test('pages from kept ids answer as the one-statement path, seats read live', async () => {
  const memo = memoOf();
  for (const scope of [small, {}]) {
    for (const input of [{}, { per_page: 4 }, { per_page: 4, page: 3 }, { per_page: 4, page: 9 }, { per_page: 100, page: 22 }, { q: 'Konzert' }, { date: '2026-03-25' }]) {
      await same(memo, { ...scope, ...input });
    }
  }
  // One load per condition: the pages of the default range share theirs.
  const loads = memo.loads;
  assert.equal(loads, 6);
  const kept = memo.kept<{ total: number; ids: number[]; rows: unknown[] }>().map(([, v]) => v);
  const large = kept.find((k) => k.total === 2_118)!;
  assert.ok(large.ids.length === 2_000 && large.rows[0] !== undefined && large.rows.length <= 2_000, 'a condition keeps its first 2,000 dates');
  assert.ok(kept.some((k) => k.ids.length === 18 && k.rows.filter(Boolean).length === 18), 'the rows of the pages read are kept');
  await book(ids[1]!, 5);
  for (const scope of [small, {}]) {
    await same(memo, scope);
    await same(memo, { ...scope, per_page: 4, page: 3 });
  }
  assert.equal(memo.loads, loads, 'a booking is not a catalogue change: the kept dates are used again');
  const [first] = (await listDates({ ...plain, masterData: memo }, small)).items as Array<{ seats: { booked: number } }>;
  assert.equal(first!.seats.booked, 3);
});

test('an event\'s dates use the same kept ids', async () => {
  const memo = memoOf();
  const input = { event_id: events[1]!.id, per_page: 5 };
  const expected = await listEventDates(plain, input);
  assert.deepEqual(await listEventDates({ ...plain, masterData: memo }, input), expected);
  assert.deepEqual(await listEventDates({ ...plain, masterData: memo }, input), expected);
  assert.equal(memo.loads, 1);
});

test('kept ids of an older catalogue version are not used', async () => {
  const memo = memoOf();
  for (const scope of [small, {}]) {
    await same(memo, { ...scope, per_page: 4 });
    await same(memo, { ...scope, per_page: 4, page: 5 });
  }
  // A change the memo never hears of: the date leaves the list and the total falls by one.
  await db.update(eventDates).set({ active: false }).where(eq(eventDates.id, ids[2]!));
  for (const scope of [small, {}]) {
    await same(memo, { ...scope, per_page: 4 }); // rows kept: only the seats are read
    await same(memo, { ...scope, per_page: 4, page: 5 });
    await same(memo, { ...scope, per_page: 2, page: 3 }); // not read before: rows read by id
  }
  const page = await listDates({ ...plain, masterData: memo }, small);
  assert.equal(page.meta.total_count, ids.length - 1);
  assert.ok(!(page.items as Array<{ id: number }>).some((d) => d.id === ids[2]));
});

test.after(() => database.drop());
