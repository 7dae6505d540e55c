// The catalogue import merges (docs/adr/0014): capacity overrides, per-slot overrides and
// closures made through the API survive a re-import; --dry-run changes nothing (a snapshot of
// every table); --prune removes only unbooked records it may; recurrence in the file.
// In process through the import verb and the HTTP API; test/cli/import-cli.test.ts runs the
// command line itself.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { importCatalogue } from '../../src/domain/catalog-import/importCatalogue.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ now: '2027-03-01T09:00:00Z' });
after(() => t.close());
const db = t.database.db;
const ctx = { db, clock: t.clock };
const staff = await t.token({ class: 'user' });
const reseller = await t.token({ class: 'reseller' });
const rows = async <T>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];

const en = (s: string) => ({ en: s });
const open = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, '09:00-18:00']));
function catalogue() {
  return {
    languages: [{ code: 'en', name: 'English' }],
    museums: [{ key: 'm', title: en('Museum'), time_zone: 'Europe/Berlin', opening_hours: { ...open } }],
    quotas: [{ key: 'q', museum: 'm', kind: 'slot', capacity: 50, overrides: { '2027-06-01': 30, '2027-06-03': 20 } as Record<string, number | null> }],
    tickets: [
      { key: 'ticket', museum: 'm', quotas: ['q'], title: en('Entry'), ticket_type: 'time_slot', price_cents: 1000, first_entry: '10:00', last_entry: '17:00', entry_duration: 30 },
      { key: 'booked', museum: 'm', quotas: ['q'], title: en('Booked'), ticket_type: 'time_slot', price_cents: 1000, first_entry: '10:00', last_entry: '17:00', entry_duration: 30 },
    ],
    events: [
      {
        key: 'talk', museum: 'm', title: en('Talk'),
        dates: [
          { start_at: '2027-05-01T18:00', seats_max: 10 },
          // Saturdays at 14:00 from 20 March: across the DST change of 28 March.
          { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=SA;COUNT=4', start_date: '2027-03-20', start_time: '14:00' }, seats_max: 25, language: 'en' },
        ],
      },
    ],
    tours: [{ key: 'tour', museum: 'm', title: en('Tour'), duration: 60, max_persons: 10, price_cents: 5000, languages: ['en'] }],
  };
}
const idOf = async (kind: string, key: string) =>
  (await rows<{ record_id: number }>(sql`select record_id from catalog_keys where kind = ${kind} and key = ${key}`))[0]!.record_id;
const overrides = async (quotaId: number) =>
  Object.fromEntries((await rows<{ date: string; capacity: number | null }>(sql`select date::text, capacity from quota_overrides where quota_id = ${quotaId} order by date`)).map((r) => [r.date, r.capacity]));

/** Every row of every table, as text: what "changes nothing" is checked against. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await rows<{ name: string }>(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [r] = await rows<{ v: string | null }>(sql.raw(`select string_agg(t::text, E'\\n' order by t::text) as v from "${name}" t`));
    out[name] = r?.v ?? '';
  }
  return out;
}

describe('import merges', () => {
  test('the first import creates everything, recurring dates in Berlin wall time', async () => {
    const s = await importCatalogue(ctx, { document: catalogue() });
    assert.equal(s.counts.ticket.created, 2);
    assert.equal(s.counts.event_date.created, 5);
    const talk = await idOf('event', 'talk');
    const starts = await rows<{ s: string }>(sql`select to_char(start_at at time zone 'Europe/Berlin', 'YYYY-MM-DD HH24:MI') as s from event_dates where event_id = ${talk} order by start_at`);
    assert.deepEqual(starts.map((r) => r.s), ['2027-03-20 14:00', '2027-03-27 14:00', '2027-04-03 14:00', '2027-04-10 14:00', '2027-05-01 18:00']);
    assert.deepEqual(await overrides(await idOf('quota', 'q')), { '2027-06-01': 30, '2027-06-03': 20 });
  });

  test('re-importing after API changes keeps them: per-date and per-slot capacity, closures', async () => {
    const q = await idOf('quota', 'q');
    const m = await idOf('museum', 'm');
    const put = (date: string, capacity: number | null) => t.request({ method: 'PUT', url: `/api/v4/quotas/${q}/overrides/${date}`, payload: { capacity }, token: staff });
    assert.equal((await put('2027-06-01', 12)).statusCode, 200); // a date the file names
    assert.equal((await t.request({ method: 'DELETE', url: `/api/v4/quotas/${q}/overrides/2027-06-03`, token: staff })).statusCode, 204);
    const closure = await t.request({ method: 'POST', url: '/api/v4/closures', payload: { closure: { museum_id: m, start_date: '2027-04-10', end_date: '2027-04-10', reason: 'inventory' } }, token: staff });
    assert.equal(closure.statusCode, 201, closure.body);
    // A date the file does not name, and one slot (docs/api-contract.md §13 capacity overrides).
    const slotCap = await t.request({ method: 'PUT', url: `/api/v4/quotas/${q}/capacities`, payload: { capacities: [{ date: '2027-06-02', capacity: 5 }, { date: '2027-06-04', time: '10:00', capacity: 3 }] }, token: staff });
    assert.equal(slotCap.statusCode, 200, slotCap.body);
    const before = await snapshot();

    const again = await importCatalogue(ctx, { document: catalogue() });
    assert.deepEqual(await overrides(q), { '2027-06-01': 12, '2027-06-02': 5 });
    assert.deepEqual(again.kept.sort(), [
      'quota q 2027-06-01: capacity 12 set through the API (the file says capacity 30)',
      'quota q 2027-06-03: no override set through the API (the file says capacity 20)',
    ]);
    // Nothing else changed either: the same file is a no-op (the 10 April date now falls on the
    // closure and is reported, the existing row stays).
    assert.equal(again.changes.length, 0, JSON.stringify(again.changes));
    assert.deepEqual(again.skipped, ['event talk 2027-04-10T14:00:00+02:00: inventory']);
    assert.deepEqual(await snapshot(), before);

    // A value edited in the file since the last import is the operator's new intent: it applies.
    const edited = catalogue();
    edited.quotas[0]!.overrides = { '2027-06-01': 35, '2027-06-03': 20 };
    const third = await importCatalogue(ctx, { document: edited });
    assert.deepEqual(await overrides(q), { '2027-06-01': 35, '2027-06-02': 5 });
    assert.deepEqual(third.changes, [{ kind: 'quota', key: 'q', action: 'update', fields: ['overrides'] }]);
    const slot = await rows<{ capacity: number }>(sql`select capacity from quota_slot_overrides where quota_id = ${q}`);
    assert.deepEqual(slot.map((r) => r.capacity), [3]);
    assert.equal((await rows(sql`select 1 from closures where reason = 'inventory'`)).length, 1);
  });

  test('--dry-run reports the plan and changes nothing; --prune keeps what has orders and says which', async () => {
    const booked = await idOf('ticket', 'booked');
    const order = await t.request({
      method: 'POST', url: '/api/v4/orders', token: reseller,
      payload: { order: { finalize: false, items: [{ type: 'Ticket', attributes: { id: booked, quantity: 1, time: '2027-03-10T10:00:00+01:00' } }], total: 1000 } },
    });
    assert.equal(order.statusCode, 201, order.body);
    const next = catalogue();
    next.tickets = [{ ...next.tickets[0]!, price_cents: 1200 }, { ...next.tickets[0]!, key: 'new', title: en('New') }];
    next.tours = [];
    next.quotas[0]!.overrides = { '2027-06-01': 35, '2027-06-03': 20 }; // as last imported
    next.events[0]!.dates = next.events[0]!.dates.slice(1); // the single date is no longer named
    const before = await snapshot();
    const plan = await importCatalogue(ctx, { document: next, dryRun: true, prune: true });
    assert.deepEqual(await snapshot(), before);
    assert.equal(plan.dryRun, true);
    const changes = plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}${c.fields ? ` ${c.fields.join()}` : ''}`).sort();
    assert.deepEqual(changes, ['create ticket new', 'remove event_date talk/2027-05-01T18:00:00+02:00', 'remove tour tour', 'update ticket ticket price_cents']);
    assert.deepEqual(plan.kept.filter((k) => k.startsWith('ticket')), [`ticket booked (#${booked}): has 1 order`]);

    // The same for real: exactly the plan.
    const done = await importCatalogue(ctx, { document: next, prune: true });
    assert.deepEqual({ ...done, dryRun: true }, plan);
    assert.equal((await rows(sql`select 1 from tickets where id = ${booked}`)).length, 1);
    assert.equal((await rows(sql`select 1 from tours`)).length, 0);
    // Without --prune, a record missing from the file is left alone.
    const quiet = await importCatalogue(ctx, { document: { ...next, tickets: [next.tickets[1]!] } });
    assert.equal(quiet.counts.ticket.removed, 0);
    assert.equal((await rows(sql`select 1 from tickets`)).length, 3);
  });

  test('seasons and closures in the file: recurrence skips the file closure; re-import is a no-op', async () => {
    const doc = {
      museums: [{
        key: 'm2', title: en('Second'), time_zone: 'Europe/Berlin', opening_hours: { ...open },
        opening_seasons: [{ start_date: '2027-07-01', end_date: '2027-08-31', hours: { ...open, thursday: '09:00-22:00' } }],
      }],
      events: [{ key: 'walk', museum: 'm2', title: en('Walk'), dates: [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=3', start_date: '2027-04-01', start_time: '11:00' }, seats_max: 5 }] }],
      closures: [{ key: 'walk-off', museum: 'm2', start_date: '2027-04-02', events: ['walk'], reason: 'guide ill' }],
    };
    const s = await importCatalogue(ctx, { document: doc });
    assert.deepEqual(s.skipped, ['event walk 2027-04-02T11:00:00+02:00: guide ill']);
    assert.equal(s.counts.closure.created, 1);
    assert.equal(s.counts.opening_season.created, 1);
    const walk = await idOf('event', 'walk');
    const c = await rows<{ event_ids: number[]; starts_at: string }>(sql`select event_ids, to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as starts_at from closures where reason = 'guide ill'`);
    assert.deepEqual(c[0]!.event_ids, [walk]);
    assert.equal(c[0]!.starts_at, '2027-04-01 22:00'); // local midnight of 2 April (+02:00)
    const season = await rows<{ hours: unknown[] }>(sql`select hours from opening_seasons where museum_id = ${await idOf('museum', 'm2')}`);
    assert.deepEqual(season[0]!.hours[3], [540, 1320]);
    const before = await snapshot();
    const again = await importCatalogue(ctx, { document: doc });
    assert.deepEqual(again.changes, []);
    assert.deepEqual(await snapshot(), before);

    const bad = structuredClone(doc) as unknown as { closures: unknown[]; museums: Array<{ opening_seasons: unknown[] }> };
    bad.closures = [
      { key: 'x1', museum: 'm2', start_date: '2027-04-05', end_date: '2027-04-04' },
      { key: 'x2', museum: 'm2', start_date: '2027-04-05', start_time: '25:00', tickets: ['nope'] },
    ];
    bad.museums[0]!.opening_seasons.push({ start_date: '2027-08-01', end_date: '2027-09-30', hours: { ...open } });
    await assert.rejects(importCatalogue(ctx, { document: bad }), (e: Error & { errors?: string[] }) => {
      assert.deepEqual([...e.errors!].sort(), [
        'closures[0].end_date: end_date must not be before start_date',
        'closures[1].start_time: "25:00" is not a time from 00:00 to 24:00 (HH:MM)',
        'closures[1].tickets[0]: unknown ticket "nope"',
        'museums[0].opening_seasons[1]: overlaps opening_seasons[0] (2027-07-01 to 2027-08-31)',
      ]);
      return true;
    });
    assert.deepEqual(await snapshot(), before);
  });

  test('recurrence in the file: bad rules are positioned errors, and nothing is written', async () => {
    const before = await snapshot();
    const bad = catalogue();
    bad.events[0]!.dates = [
      { recurrence: { rrule: 'FREQ=DAILY;COUNT=1001', start_date: '2027-03-20', start_time: '14:00' }, seats_max: 5, language: 'en' },
      { recurrence: { rrule: 'FREQ=SOMETIMES', start_date: '2027-03-20', start_time: '25:00' }, seats_max: 5, language: 'en' },
      { seats_max: 5 } as never,
    ];
    await assert.rejects(importCatalogue(ctx, { document: bad }), (e: Error & { errors?: string[] }) => {
      assert.deepEqual([...e.errors!].sort(), [
        'events[0].dates[0].recurrence.rrule: would create more than 1000 dates',
        'events[0].dates[1].recurrence.rrule: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
        'events[0].dates[1].recurrence.start_time: "25:00" is not a time of day: use "HH:MM"',
        'events[0].dates[2]: a date needs start_at, or a recurrence for many dates',
      ]);
      return true;
    });
    assert.deepEqual(await snapshot(), before);
  });
});
