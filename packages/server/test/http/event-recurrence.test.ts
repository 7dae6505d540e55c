// POST /events/:id/dates with a recurrence (docs/api-contract.md §13): an RRULE expanded in Berlin wall time
// across both DST changes, skipping closed weekdays and closures (museum-wide and per event),
// one transaction, and 422 with nothing written for invalid or too large rules.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { closures, eventDates } from '../../src/db/schema/index.ts';
import { atMinutes } from '../../src/domain/schedules/schedule.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp({ now: '2027-03-01T09:00:00Z' });
after(() => t.close());
const db = t.database.db;
const staff = await t.token({ class: 'user' });
// Closed on Mondays, otherwise 10:00–18:00.
const m = await f.museum(db, { openingHours: [null, [600, 1080], [600, 1080], [600, 1080], [600, 1080], [600, 1080], [600, 1080]] });
const talk = await f.event(db, { museumId: m.id });
const other = await f.event(db, { museumId: m.id });
const day = (date: string) => ({ startDate: date, endDate: date, startsAt: atMinutes(date, 0, 'Europe/Berlin'), endsAt: atMinutes(date, 1440, 'Europe/Berlin') });
await db.insert(closures).values([
  { museumId: m.id, ...day('2027-03-27'), reason: 'staff outing' }, // whole museum
  { museumId: m.id, ...day('2027-04-03'), eventIds: [talk.id], reason: 'speaker away' },
  { museumId: m.id, ...day('2027-03-21'), eventIds: [other.id] }, // another event only
]);

const post = (eventId: number, body: unknown, token = staff) =>
  t.request({ method: 'POST', url: `/api/v4/events/${eventId}/dates`, payload: body as object, token });
const datesOf = async (eventId: number) =>
  (await db.select().from(eventDates).where(eq(eventDates.eventId, eventId)).orderBy(eventDates.startAt)).map((d) => d.startAt.toISOString());

describe('recurring event dates', () => {
  test('weekends across the spring DST change at 14:00 wall time, closures skipped', async () => {
    const res = await post(talk.id, {
      date: { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270405T000000Z', start_date: '2027-03-20', start_time: '14:00', duration: 90, seats: 30 }, language_id: null },
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as { dates: Array<{ start_time: string; seats: unknown }>; skipped: Array<{ start_time: string; reason: string }> };
    // 28 March 2027 is the change to summer time: +01:00 before, +02:00 after, always 14:00.
    assert.deepEqual(body.dates.map((d) => d.start_time), ['2027-03-20T14:00:00+01:00', '2027-03-21T14:00:00+01:00', '2027-03-28T14:00:00+02:00', '2027-04-04T14:00:00+02:00']);
    assert.deepEqual(body.skipped, [
      { start_time: '2027-03-27T14:00:00+01:00', reason: 'staff outing' },
      { start_time: '2027-04-03T14:00:00+02:00', reason: 'speaker away' },
    ]);
    assert.deepEqual(await datesOf(talk.id), ['2027-03-20T13:00:00.000Z', '2027-03-21T13:00:00.000Z', '2027-03-28T12:00:00.000Z', '2027-04-04T12:00:00.000Z']);
    const [row] = await db.select().from(eventDates).where(eq(eventDates.eventId, talk.id)).limit(1);
    assert.equal(row!.duration, 90);
    assert.equal(row!.seatsMax, 30);

    // The same rule again creates nothing twice.
    const again = await post(talk.id, { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270405T000000Z', start_date: '2027-03-20', start_time: '14:00', seats: 30 } });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().dates.length, 0);
    assert.equal(again.json().skipped.filter((s: { reason: string }) => s.reason === 'the event already has a date at this time').length, 4);
    assert.equal((await datesOf(talk.id)).length, 4);
  });

  test('daily across the autumn DST change; closed Mondays skipped with the reason', async () => {
    // 31 October 2027 is the change back to winter time (a 25-hour day).
    const res = await post(other.id, { recurrence: { rrule: 'FREQ=DAILY;COUNT=4', start_date: '2027-10-30', start_time: '10:30', seats: 12 } });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().dates.map((d: { start_time: string }) => d.start_time), ['2027-10-30T10:30:00+02:00', '2027-10-31T10:30:00+01:00', '2027-11-02T10:30:00+01:00']);
    assert.deepEqual(res.json().skipped, [{ start_time: '2027-11-01T10:30:00+01:00', reason: 'closed on Mondays' }]);
    // The closure naming `other` on 21 March applies to it and not to `talk` (above).
    const r2 = await post(other.id, { recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_date: '2027-03-20', start_time: '09:00', seats: 5 } });
    assert.deepEqual(r2.json().skipped.map((s: { start_time: string }) => s.start_time), ['2027-03-21T09:00:00+01:00']);
  });

  test('UNTIL as a date alone includes that day', async () => {
    const e = await f.event(db, { museumId: m.id });
    const res = await post(e.id, { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU,WE;UNTIL=20270512', start_date: '2027-05-04', start_time: '19:00', seats: 9 } });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().dates.map((d: { start_time: string }) => d.start_time), ['2027-05-04T19:00:00+02:00', '2027-05-05T19:00:00+02:00', '2027-05-11T19:00:00+02:00', '2027-05-12T19:00:00+02:00']);
  });

  test('exactly 1,000 occurrences are accepted; 1,001 or an endless rule are a 422 that writes nothing', async () => {
    const e = await f.event(db, { museumId: m.id });
    const rule = (n: number) => ({ recurrence: { rrule: `FREQ=DAILY;COUNT=${n}`, start_date: '2027-03-02', start_time: '11:00', seats: 10 } });
    for (const body of [rule(1001), { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=SA', start_time: '11:00', seats: 10 } }]) {
      const res = await post(e.id, body);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.match(res.json().errors.join('\n'), /recurrence\.rrule.*more than 1000 dates/);
    }
    assert.equal((await datesOf(e.id)).length, 0);
    const ok = await post(e.id, rule(1000));
    assert.equal(ok.statusCode, 201, ok.body);
    const { dates, skipped } = ok.json() as { dates: unknown[]; skipped: Array<{ reason: string }> };
    assert.equal(dates.length + skipped.length, 1000);
    assert.ok(skipped.length > 100 && skipped.every((s) => s.reason === 'closed on Mondays' || s.reason === 'staff outing'));
    assert.equal((await datesOf(e.id)).length, dates.length);
  });

  test('invalid input: every problem as a field error, nothing written', async () => {
    const e = await f.event(db, { museumId: m.id });
    const cases: Array<[unknown, RegExp]> = [
      [{ recurrence: { rrule: 'FREQ=SOMETIMES;COUNT=2', start_time: '14:00', seats: 5 } }, /recurrence\.rrule: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY/],
      [{ recurrence: { rrule: 'garbage', start_time: '14:00', seats: 5 } }, /recurrence\.rrule: unknown part "garbage"/],
      [{ recurrence: { rrule: 'FREQ=HOURLY;COUNT=2', start_time: '14:00', seats: 5 } }, /FREQ must be/],
      [{ recurrence: { rrule: 'FREQ=DAILY;BYHOUR=9;COUNT=2', start_time: '14:00', seats: 5 } }, /BYHOUR is not allowed/],
      [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=2;UNTIL=20270401', start_time: '14:00', seats: 5 } }, /UNTIL or COUNT, not both/],
      [{ recurrence: { rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2', start_time: '14:00', seats: 5 } }, /matches no date/],
      [{ recurrence: { rrule: 'FREQ=DAILY;UNTIL=20990101', start_time: '14:00', seats: 5 } }, /UNTIL is more than/],
      [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '25:00', seats: 5 } }, /recurrence\.start_time must be a time of day/],
      [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '14:00' } }, /recurrence\.seats is required/],
      [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '14:00', seats: 5, start_date: '2027-02-30' } }, /recurrence\.start_date must be a date/],
      [{ start_time: '2027-05-01T10:00', recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '14:00', seats: 5 } }, /start_time cannot be given with recurrence/],
      [{ recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '14:00', seats: 5 }, language_id: 99999 }, /language 99999 is unknown/],
    ];
    for (const [body, message] of cases) {
      const res = await post(e.id, body);
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
      assert.match((res.json().errors ?? []).join('\n'), message, JSON.stringify(body));
    }
    assert.equal((await datesOf(e.id)).length, 0);
    const missing = await post(e.id + 1000, { recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '14:00', seats: 5 } });
    assert.equal(missing.statusCode, 404);
    const reseller = await post(e.id, { recurrence: { rrule: 'FREQ=DAILY;COUNT=2', start_time: '14:00', seats: 5 } }, await t.token({ class: 'reseller' }));
    assert.equal(reseller.statusCode, 403);
    assert.equal((await datesOf(e.id)).length, 0);
  });

  test('occurrences already past are skipped; a single date is still created as before', async () => {
    const e = await f.event(db, { museumId: m.id });
    const res = await post(e.id, { recurrence: { rrule: 'FREQ=DAILY;COUNT=5', start_date: '2027-02-26', start_time: '12:00', seats: 5 } });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().skipped.map((s: { reason: string }) => s.reason), ['in the past', 'in the past', 'in the past', 'closed on Mondays']);
    const single = await post(e.id, { start_time: '2027-05-01T10:00:00', seats_max: 8 });
    assert.equal(single.statusCode, 201, single.body);
    assert.equal(single.json().date.start_time, '2027-05-01T10:00:00+02:00');
    const n = await db.execute<{ n: number }>(sql`select count(*)::int as n from event_dates where event_id = ${e.id}`);
    assert.equal(n.rows[0]!.n, 2);
  });
});
