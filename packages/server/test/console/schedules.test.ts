// The schedules pages over HTTP as a signed-in browser: a closure previewed (nothing written),
// confirmed with cancellation (orders cancelled, audit entry), reopened; opening hours,
// capacity overrides and recurring dates through the same verbs as the API; hostile text
// escaped; a viewer and another museum's staff refused with nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { addDays, zonedInstant } from '../../src/domain/time.ts';
import { openWeek } from './backoffice.ts';
import { signIn, staffUser, type Browser } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const day = f.localDate(5);
let museumA: number, museumB: number, quotaId: number, eventId: number, orderId: number;
let manager: Browser, viewer: Browser, managerB: Browser;
const count = async (q: ReturnType<typeof sql>) => Number((await db.execute<{ n: string }>(q)).rows[0]!.n);
const audits = (action: string) => count(sql`select count(*) as n from audit_log where action = ${action}`);
const closures = () => count(sql`select count(*) as n from closures`);

before(async () => {
  museumA = (await f.museum(db)).id;
  museumB = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId: museumA, capacity: 50 });
  quotaId = q.id;
  const ticketId = (await f.ticket(db, { museumId: museumA, quotaIds: [q.id] })).id;
  eventId = (await f.event(db, { museumId: museumA })).id;
  const user = await t.token({ class: 'user' });
  const res = await t.request({
    method: 'POST', url: '/api/v4/orders', token: user,
    payload: { finalize: true, customer: { name: 'Paula', surname: 'Vorschau', email: 'paula@example.org' }, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 2, time: zonedInstant(day, 600, 'Europe/Berlin').toISOString() } }] },
  });
  assert.equal(res.statusCode, 201, res.body);
  orderId = res.json().order.id;
  manager = await signIn(t, (await staffUser(t, 'manager', [museumA])).email);
  viewer = await signIn(t, (await staffUser(t, 'viewer', [museumA])).email);
  managerB = await signIn(t, (await staffUser(t, 'manager', [museumB])).email);
});

describe('closures', () => {
  test('the preview lists the affected order and writes nothing', async () => {
    const res = await manager.post('/console/closures/preview', { museum_id: String(museumA), start_date: day, reason: 'Sturm' });
    assert.equal(res.statusCode, 200, res.body.slice(0, 800));
    assert.match(res.body, /1 order\(s\) with 2 visitor\(s\)/);
    assert.match(res.body, new RegExp(`href="/console/orders/${orderId}"`));
    assert.match(res.body, /, 10:00: Paula Vorschau, 2 (people|Personen)<\/li>/, 'who and when, not a bare number');
    assert.equal(await closures(), 0);
    assert.equal(await audits('closure.create'), 0);
  });

  test('bad dates are explained and nothing is written', async () => {
    const res = await manager.post('/console/closures/preview', { museum_id: String(museumA), start_date: '2026-02-30' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /start_date must be a date/);
    const res2 = await manager.post('/console/closures', { museum_id: String(museumA), start_date: day, end_date: '2020-01-01' });
    assert.equal(res2.statusCode, 422);
    assert.match(res2.body, /end_date must not be before start_date/);
    assert.equal(await closures(), 0);
  });

  test('a viewer and a manager of another museum are refused, nothing changes', async () => {
    const form = { museum_id: String(museumA), start_date: day, cancel_orders: '1' };
    assert.equal((await viewer.post('/console/closures', form)).statusCode, 403);
    assert.equal((await managerB.post('/console/closures', form)).statusCode, 404);
    assert.equal((await managerB.post('/console/closures/preview', form)).statusCode, 404);
    assert.equal((await managerB.get(`/console/schedules?museum_id=${museumA}`)).statusCode, 404);
    assert.equal(await closures(), 0);
    assert.equal((await viewer.get('/console/schedules')).statusCode, 200);
    assert.ok(!(await viewer.get('/console/schedules')).body.includes('action="/console/closures/preview"'), 'no forms for a viewer');
  });

  test('confirming with cancellation closes, cancels the order, and is audited; reopening too', async () => {
    const res = await manager.post('/console/closures', { museum_id: String(museumA), start_date: day, reason: '<script>alert(1)</script>', cancel_orders: '1' });
    assert.equal(res.statusCode, 303, res.body.slice(0, 500));
    assert.match(res.headers.location as string, /notice=closurecancelled/);
    assert.equal(await closures(), 1);
    const o = await count(sql`select count(*) as n from orders where id = ${orderId} and status = 'cancelled'`);
    assert.equal(o, 1);
    const [entry] = (await db.execute<{ staff_user_id: number; museum_id: number; after: { affected: { orders: number } } }>(sql`select * from audit_log where action = 'closure.create'`)).rows;
    assert.equal(entry!.museum_id, museumA);
    assert.equal(entry!.after.affected.orders, 1);
    const page = await manager.get(`/console/schedules?museum_id=${museumA}`);
    assert.ok(!page.body.includes('<script>alert(1)'), 'reason escaped');
    assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    const id = Number(/action="\/console\/closures\/(\d+)\/delete"/.exec(page.body)![1]);
    assert.equal((await managerB.post(`/console/closures/${id}/delete`, {})).statusCode, 404);
    assert.equal((await viewer.post(`/console/closures/${id}/delete`, {})).statusCode, 403);
    // The first post only asks: the closure is still there.
    const ask = await manager.post(`/console/closures/${id}/delete`, {});
    assert.equal(ask.statusCode, 200);
    assert.match(ask.body, /Reopen the period\?|Zeitraum wieder öffnen\?/);
    assert.match(ask.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'the reason, escaped');
    assert.match(ask.body, /name="confirm" value="1"/);
    assert.equal(await closures(), 1);
    assert.equal(await audits('closure.delete'), 0);
    assert.equal((await manager.post(`/console/closures/${id}/delete`, { confirm: '1' })).statusCode, 303);
    assert.equal(await closures(), 0);
    assert.equal(await audits('closure.delete'), 1);
  });
});

describe('hours, capacities, recurring dates', () => {
  test('opening hours: toggles and time pickers; saved and audited with before/after', async () => {
    const page = await manager.get(`/console/schedules?museum_id=${museumA}`);
    assert.match(page.body, /id="open_monday" name="open_monday" value="1" checked/);
    assert.match(page.body, /id="from_monday" name="from_monday" type="time" value="10:00"/);
    assert.ok(!page.body.includes('closed|'), 'no typed notation to learn');
    const form = { museum_id: String(museumA), ...openWeek(), open_monday: '', ex_0_date: day, ex_0_state: 'open', ex_0_from: '12:00', ex_0_to: '14:00', ex_1_date: '', ex_1_state: 'closed' };
    const ok = await manager.post('/console/schedules/hours', form);
    assert.equal(ok.statusCode, 303, ok.body.replace(/[\s\S]*<main[^>]*>/, '').slice(0, 600));
    const [e] = (await db.execute<{ before: { weekly: Record<string, string> }; after: { weekly: Record<string, string>; exceptions: Record<string, string> } }>(sql`select * from audit_log where action = 'schedule.update'`)).rows;
    assert.equal(e!.before.weekly.monday, '10:00-18:00');
    assert.equal(e!.after.weekly.monday, 'closed');
    assert.equal(e!.after.weekly.thursday, '10:00-20:00');
    assert.deepEqual(e!.after.exceptions, { [day]: '12:00-14:00' });
    const again = await manager.get(`/console/schedules?museum_id=${museumA}`);
    assert.match(again.body, /id="open_monday" name="open_monday" value="1">/, 'Monday shown closed');
    assert.match(again.body, new RegExp(`id="ex_0_date" name="ex_0_date" type="date" value="${day}"`));
    assert.equal((await viewer.post('/console/schedules/hours', form)).statusCode, 403);
    assert.equal((await managerB.post('/console/schedules/hours', form)).statusCode, 404);
    assert.equal(await audits('schedule.update'), 1);
  });

  test('opening hours: a mistake is shown at its field with everything typed kept; nothing saved', async () => {
    const form = { museum_id: String(museumA), ...openWeek(), from_tuesday: '18:00', to_tuesday: '09:00', to_friday: '', ex_0_date: '2026-02-30', ex_0_state: 'closed', ex_1_date: '', ex_1_state: 'open', ex_1_from: '10:00' };
    const bad = await manager.post('/console/schedules/hours', form);
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /<a href="#from_tuesday">Tuesday: the opening time must be before the closing time\.<\/a>/);
    assert.match(bad.body, /<a href="#from_friday">Friday: please give the opening and the closing time\.<\/a>/);
    assert.match(bad.body, /&quot;2026-02-30&quot; is not a date/);
    assert.match(bad.body, /Other day 2: please give a date/);
    assert.match(bad.body, /id="from_tuesday" name="from_tuesday" type="time" value="18:00" aria-invalid="true"/, 'typed value kept');
    assert.match(bad.body, /id="ex_0_date" name="ex_0_date" type="date" value="2026-02-30"/);
    assert.equal(await audits('schedule.update'), 1, 'nothing saved');
  });

  test('capacity override: set, oversold reported, audited', async () => {
    const res = await manager.post('/console/capacities', { quota_id: String(quotaId), date: day, time: '10:00', capacity: '0' });
    assert.equal(res.statusCode, 303, res.body.replace(/[\s\S]*<main[^>]*>/, '').slice(0, 600));
    assert.equal(await audits('capacity.set'), 1);
    const bad = await manager.post('/console/capacities', { quota_id: String(quotaId), date: day, capacity: 'lots' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /capacity must be a whole number/);
    assert.equal((await managerB.post('/console/capacities', { quota_id: String(quotaId), date: day, capacity: '5' })).statusCode, 404);
    assert.equal(await audits('capacity.set'), 1);
  });

  test('recurring event dates from an RRULE', async () => {
    // Mondays open again and the first day closed by an exception, so exactly that day is closed
    // whatever weekday it falls on (an event date needs no opening hours beyond that, only an
    // open day without a closure: rule.ts, mode 'event').
    const hours = await manager.post('/console/schedules/hours', { museum_id: String(museumA), ...openWeek(), ex_0_date: day, ex_0_state: 'closed' });
    assert.equal(hours.statusCode, 303);
    const res = await manager.post('/console/event-dates', { event_id: String(eventId), rrule: 'FREQ=DAILY;COUNT=3', start_date: day, start_time: '14:00', duration: '60', seats: '20' });
    assert.equal(res.statusCode, 303, res.body.replace(/[\s\S]*<main[^>]*>/, '').slice(0, 800));
    // The first day is closed: its date is skipped.
    assert.match(res.headers.location as string, /created=2&skipped=1/);
    assert.equal(await count(sql`select count(*) as n from event_dates where event_id = ${eventId}`), 2);
    const bad = await manager.post('/console/event-dates', { event_id: String(eventId), rrule: 'FREQ=NEVER', start_time: '14:00', seats: '20' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /value="FREQ=NEVER"/, 'the rule typed is kept');
    assert.equal(await count(sql`select count(*) as n from event_dates where event_id = ${eventId}`), 2);
    assert.equal(await audits('event_dates.create'), 1);
  });

  test('recurring event dates from weekdays, time and an end: preview first, then the same dates', async () => {
    const other = (await f.event(db, { museumId: museumA })).id;
    const start = f.localDate(20);
    const until = f.localDate(48);
    const form = { event_id: String(other), weekdays: ['SA', 'SU'], start_time: '14:00', start_date: start, ends: 'until', until, duration: '90', seats: '25' };
    const preview = await manager.post('/console/event-dates/preview', form);
    assert.equal(preview.statusCode, 200, preview.body.replace(/[\s\S]*<main[^>]*>/, '').slice(0, 800));
    const expected: string[] = [];
    for (let d = start; d <= until; d = addDays(d, 1)) if ([0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay())) expected.push(d);
    assert.match(preview.body, new RegExp(`${expected.length} date\\(s\\) would be created`));
    assert.equal((preview.body.match(/, 14:00<\/li>/g) ?? []).length, Math.min(10, expected.length));
    assert.match(preview.body, /id="dw-SA" name="weekdays" value="SA" checked/, 'choices kept');
    assert.equal(await count(sql`select count(*) as n from event_dates where event_id = ${other}`), 0, 'the preview writes nothing');
    const made = await manager.post('/console/event-dates', form);
    assert.equal(made.statusCode, 303, made.body.replace(/[\s\S]*<main[^>]*>/, '').slice(0, 800));
    const rows = (await db.execute<{ d: string; t: string; duration: number }>(sql`select to_char(start_at at time zone 'Europe/Berlin', 'YYYY-MM-DD') as d, to_char(start_at at time zone 'Europe/Berlin', 'HH24:MI') as t, duration from event_dates where event_id = ${other} order by start_at`)).rows;
    assert.deepEqual(rows.map((r) => r.d), expected, 'every Saturday and Sunday up to and including the last day');
    assert.ok(rows.every((r) => r.t === '14:00' && r.duration === 90));
    const [entry] = (await db.execute<{ after: { recurrence: { rrule: string } } }>(sql`select after from audit_log where action = 'event_dates.create' and entity_id = ${String(other)}`)).rows;
    assert.equal(entry!.after.recurrence.rrule, `FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=${until.replace(/-/g, '')}T235959`);
  });

  test('recurring dates form: mistakes named in words, typed values kept, nothing written', async () => {
    const other = (await f.event(db, { museumId: museumA })).id;
    const none = await manager.post('/console/event-dates', { event_id: String(other), start_time: '14:00', ends: 'count', count: '5000', seats: '10' });
    assert.equal(none.statusCode, 422);
    assert.match(none.body, /Please tick at least one weekday/);
    assert.match(none.body, /Please give a number between 1 and 1000/);
    assert.match(none.body, /id="d-count" name="count" type="number" min="1" max="1000" value="5000"/);
    const noEnd = await manager.post('/console/event-dates/preview', { event_id: String(other), weekdays: 'MO', start_time: '14:00', ends: 'until', seats: '10' });
    assert.equal(noEnd.statusCode, 422);
    assert.match(noEnd.body, /Please say until when/);
    assert.equal((await managerB.post('/console/event-dates/preview', { event_id: String(other), weekdays: 'MO', ends: 'count', count: '2', start_time: '14:00', seats: '10' })).statusCode, 404);
    assert.equal(await count(sql`select count(*) as n from event_dates where event_id = ${other}`), 0);
  });
});
