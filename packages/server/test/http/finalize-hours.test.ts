// Finalizing a pending order after the museum changed its opening hours (ADR 0013
// "Changed"): the finalize asks the sellability rule again, so weekly hours, a season or a
// single-date exception that no longer cover the order's slot refuse it with 422 CLOSED, and the
// order stays pending with no barcodes and no event. Hours that change but still cover the slot
// let it through. A reservation turned into an order after such a change is refused the same way
// (the order's claim asks the rule), and the hold is left as it was.
import assert from 'node:assert/strict';
import { after, afterEach, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { museums } from '../../src/db/schema/index.ts';
import { lockSchedule } from '../../src/db/repositories/schedules/closures.ts';
import { isoInZone, zonedInstant } from '../../src/domain/time.ts';
import { assertError } from '../contract/error-shape.ts';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';

const Z = 'Europe/Berlin';
const t = await testApp({ now: '2026-03-01T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
const staff = await t.token({ class: 'user' });
const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
  const res = await t.request({ method, url: `/api/v4${url}`, token: staff, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
};
const m = await f.museum(db); // open 10:00-18:00 (Thursdays to 20:00)
const q = await f.quota(db, { museumId: m.id, capacity: 500 });
const T = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] }); // 10:00-17:00 every 30 minutes
const de = await f.language(db);
const R = await f.tour(db, { museumId: m.id, languageIds: [de.id], duration: 60, minPersons: 1, maxPersons: 20, maxConcurrent: 5, windowStart: 600, windowEnd: 960, step: 60 });
const at = (date: string, minutes: number) => isoInZone(zonedInstant(date, minutes, Z), Z);

const open = { monday: '10:00-18:00', tuesday: '10:00-18:00', wednesday: '10:00-18:00', thursday: '10:00-20:00', friday: '10:00-18:00', saturday: '10:00-18:00', sunday: '10:00-18:00' };
const setHours = async (body: object) => {
  const r = await call('PUT', `/museums/${m.id}/schedule`, body);
  assert.equal(r.status, 200, JSON.stringify(r.body));
};
// Each test starts from the factory's hours, with no season and no exception.
afterEach(() => setHours({ weekly: open, seasons: [], exceptions: {} }));

const ticketItem = (date: string) => ({ type: 'Ticket', attributes: { id: T.id, quantity: 2, time: at(date, 660) } });
/** A pending order for 11:00 on `date` (2 tickets, or a tour for 5). */
async function pendingOrder(date: string, item: object = ticketItem(date)): Promise<number> {
  const r = await call('POST', '/orders', { items: [item], finalize: false });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.order.status, 'pending');
  return r.body.order.id;
}
async function stateOf(id: number) {
  const [r] = (await db.execute<{ status: string; codes: number; events: number; held: number }>(sql`select o.status,
      (select count(*)::int from barcodes b join order_items i on i.id = b.order_item_id where i.order_id = o.id) codes,
      (select count(*)::int from outbox_events e where e.type = 'order.finalized' and e.subject_id = o.id) events,
      (select count(*)::int from capacity_allocations a join order_items i on i.id = a.order_item_id where i.order_id = o.id) held
    from orders o where o.id = ${id}`)).rows;
  return { ...r! };
}
async function refused(id: number, reason: string) {
  const before = await stateOf(id);
  const res = await t.request({ method: 'POST', url: `/api/v4/orders/${id}/finalize`, token: staff });
  assert.equal(assertError(res, 422, 'CLOSED').error, `not sellable: ${reason}`);
  assert.deepEqual(await stateOf(id), before, 'nothing changes');
  assert.deepEqual({ status: before.status, codes: before.codes, events: before.events }, { status: 'pending', codes: 0, events: 0 });
}
async function finalized(id: number, codes = 2) {
  const r = await call('POST', `/orders/${id}/finalize`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.order.status, 'finalized');
  const { held: _, ...s } = await stateOf(id);
  assert.deepEqual(s, { status: 'finalized', codes, events: 1 });
}

test('weekly hours that no longer cover the slot refuse the finalize; back to the old hours, it passes', async () => {
  const D = '2026-06-02'; // a Tuesday
  const id = await pendingOrder(D);
  await setHours({ weekly: { tuesday: '12:00-18:00' } });
  await refused(id, 'outside opening hours');
  await setHours({ weekly: { tuesday: 'closed' } });
  await refused(id, 'closed on Tuesdays');
  await setHours({ weekly: { tuesday: '10:00-18:00' } });
  await finalized(id);
});

test('a season or a single-date exception that closes the slot refuses the finalize', async () => {
  const bySeason = await pendingOrder('2026-06-03'); // Wednesday
  await setHours({ seasons: [{ start_date: '2026-06-01', end_date: '2026-06-30', hours: { ...open, wednesday: '13:00-18:00' } }] });
  await refused(bySeason, 'outside opening hours');
  await setHours({ seasons: [{ start_date: '2026-06-01', end_date: '2026-06-30', hours: { ...open, wednesday: 'closed' } }] });
  await refused(bySeason, 'closed on Wednesdays from 2026-06-01 to 2026-06-30');

  const byException = await pendingOrder('2026-06-04');
  await setHours({ exceptions: { '2026-06-04': 'closed' } });
  await refused(byException, 'closed on 2026-06-04');
  await setHours({ exceptions: { '2026-06-04': '14:00-16:00' } });
  await refused(byException, 'outside opening hours');

  // The season ends before the exception's date: only the exception stands in the way.
  await setHours({ seasons: [], exceptions: {} });
  await finalized(bySeason);
  await finalized(byException);
});

test('a tour run that would end after the new closing time is refused', async () => {
  const id = await pendingOrder('2026-06-05', { type: 'Tour', attributes: { id: R.id, start_time: at('2026-06-05', 900), language_id: de.id, quantity: 5 } });
  await setHours({ exceptions: { '2026-06-05': '10:00-15:30' } }); // 15:00-16:00 no longer fits
  await refused(id, 'outside opening hours');
  await setHours({ exceptions: { '2026-06-05': '10:00-16:00' } });
  await finalized(id, 1);
});

test('control: hours that change but still cover the slot do not stop the finalize', async () => {
  const weekly = await pendingOrder('2026-06-09'); // Tuesday
  const season = await pendingOrder('2026-06-10'); // Wednesday
  const exception = await pendingOrder('2026-06-11');
  await setHours({
    weekly: { tuesday: '11:00-12:00' },
    seasons: [{ start_date: '2026-06-10', end_date: '2026-06-10', hours: { ...open, wednesday: '09:00-11:30' } }],
    exceptions: { '2026-06-11': '08:00-23:00' },
  });
  await finalized(weekly);
  await finalized(season);
  await finalized(exception);
});

test('a reservation turned into an order after the hours changed: 422 CLOSED, the hold stays', async () => {
  const D = '2026-06-16';
  const r = await call('POST', '/reservations', { ticket_id: T.id, quantity: 2, start_at: at(D, 660) });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const token = r.body.reservation.reservation_token;
  await setHours({ exceptions: { [D]: '12:00-18:00' } });
  const orders = async () => Number((await db.execute<{ n: number }>(sql`select count(*)::int n from orders`)).rows[0]!.n);
  const before = await orders();
  const o = await t.request({ method: 'POST', url: '/api/v4/orders', token: staff, payload: { items: [{ ...ticketItem(D), attributes: { ...ticketItem(D).attributes, reservations: [token] } }], finalize: true } });
  assert.equal(assertError(o, 422, 'CLOSED').error, 'not sellable: outside opening hours');
  assert.equal(await orders(), before, 'no order written');
  const [hold] = (await db.execute<{ quantity: number; consumed: boolean; released: boolean; held: number }>(sql`select r.quantity,
      r.consumed_at is not null consumed, r.released_at is not null released,
      (select coalesce(sum(a.quantity), 0)::int from capacity_allocations a where a.reservation_id = r.id) held
    from reservations r where r.token = ${token}`)).rows;
  assert.deepEqual({ ...hold! }, { quantity: 2, consumed: false, released: false, held: 2 });
});

test('updating a pending order (comment, reference, customer) sells nothing: allowed, and the finalize is still refused', async () => {
  const id = await pendingOrder('2026-06-17');
  await setHours({ exceptions: { '2026-06-17': 'closed' } });
  const u = await call('PUT', `/orders/${id}`, { comment: 'called the family' });
  assert.equal(u.status, 200, JSON.stringify(u.body));
  assert.equal(u.body.order.status, 'pending');
  await refused(id, 'closed on 2026-06-17');
});

test('a change of hours still committing when the finalize arrives: the finalize waits for it, then is refused', async () => {
  // The change as PUT /museums/:id/schedule makes it (schedule lock EXCLUSIVE, then the row),
  // held open while the finalize arrives. Reading the hours from the memo, or before the lock,
  // would let the finalize through at once with the old hours.
  const D = '2026-06-23'; // Tuesday
  const id = await pendingOrder(D);
  let settled = false;
  let fin: Promise<{ status: number; body: any }> | undefined;
  await db.transaction(async (tx) => {
    await lockSchedule(tx, m.id);
    await tx.update(museums).set({ openingExceptions: { [D]: [780, 1080] } }).where(eq(museums.id, m.id));
    fin = call('POST', `/orders/${id}/finalize`).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(settled, false, 'the finalize waits for the change of hours to commit');
  });
  const r = await fin!;
  assert.equal(r.status, 422, JSON.stringify(r.body));
  assert.equal(r.body.code, 'CLOSED');
  assert.equal(r.body.error, 'not sellable: outside opening hours');
  const { held: _, ...s } = await stateOf(id);
  assert.deepEqual(s, { status: 'pending', codes: 0, events: 0 });
});
