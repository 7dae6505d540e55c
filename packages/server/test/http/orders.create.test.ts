// POST /api/v4/orders: shapes, pricing, access, and bad input that must change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;

const day = f.localDate(5);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
let museumId: number, otherMuseum: number, ticketId: number, shopOnly: number, attendeeTicket: number, dayTicket: number;
let dateId: number, tourId: number, langId: number, reseller: string, user: string;

async function counts() {
  const r = await db.execute<{ o: number; i: number; a: number; c: number }>(sql`select
    (select count(*)::int from orders) o, (select count(*)::int from order_items) i,
    (select count(*)::int from capacity_allocations) a, (select count(*)::int from customers) c`);
  return r.rows[0];
}
const post = (body: unknown, token = reseller) => t.request({ method: 'POST', url: '/api/v4/orders', token, payload: body as object });
const ticketItem = (id: number, quantity = 2, extra: object = {}) => ({ type: 'Ticket', attributes: { id, quantity, time: at(600), ...extra } });

before(async () => {
  const m = await f.museum(db);
  museumId = m.id;
  otherMuseum = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId, capacity: 10 });
  ticketId = (await f.ticket(db, { museumId, quotaIds: [q.id], priceCents: 1400, resellerPriceCents: 1200, discount: 10 })).id;
  shopOnly = (await f.ticket(db, { museumId, quotaIds: [q.id], salesChannels: ['shop'] })).id;
  attendeeTicket = (await f.ticket(db, { museumId, quotaIds: [q.id], attendees: 'required', maxPersons: 5 })).id;
  const dq = await f.quota(db, { museumId, kind: 'day', capacity: 100 });
  dayTicket = (await f.ticket(db, { museumId, ticketType: 'normal', quotaIds: [dq.id], priceCents: 500 })).id;
  const ev = await f.event(db, { museumId, priceCents: 800 });
  dateId = (await f.eventDate(db, { eventId: ev.id, startAt: new Date(at(840)), seatsMax: 20 })).id;
  langId = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId, languageIds: [langId], priceCents: 9000, pricing: 'group' })).id;
  reseller = await t.token({ class: 'reseller', museumIds: [museumId] });
  user = await t.token({ class: 'user', rights: ['orders:write'] });
});

describe('POST /orders', () => {
  test('creates a pending order with tickets, an event date and a tour, priced for the caller', async () => {
    const res = await post({
      order: {
        comment: 'c', reference: 'r', finalize: false,
        items: [
          ticketItem(ticketId, 2),
          { type: 'Event', attributes: { id: dateId, quantity: 3 } },
          { type: 'Tour', attributes: { id: tourId, start_time: at(660), language_id: langId, quantity: 12 } },
        ],
        total: 2160 + 2400 + 9000,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const o = res.json().order;
    assert.equal(o.status, 'pending');
    assert.equal(o.is_valid, false);
    assert.equal(o.source, 'resellershop');
    assert.equal(o.currency, 'EUR');
    assert.equal(o.total_price_cents, 13560);
    assert.match(o.token, /^[A-Za-z0-9_-]{22,}$/);
    assert.equal(new Date(o.expires_at).getTime() - new Date(o.created_at).getTime(), 30 * 60_000);
    assert.deepEqual(o.documents, []);
    const [tk, ev, tour] = o.items;
    // Reseller price 1200 × 2 minus the ticket's 10 % discount.
    assert.deepEqual([tk.type, tk.unit_price_cents, tk.price_cents, tk.vat_pct, tk.attributes.ticket_id], ['Ticket', 1200, 2160, 7, ticketId]);
    assert.match(tk.attributes.start_time, /T10:00:00\+0[12]:00$/);
    assert.deepEqual(tk.attributes.barcodes, []);
    assert.deepEqual([ev.type, ev.price_cents, ev.attributes.date_id, ev.quantity], ['Event', 2400, dateId, 3]);
    assert.deepEqual([tour.type, tour.price_cents, tour.attributes.tour_id, tour.attributes.participants], ['Tour', 9000, tourId, 12]);
    assert.equal(tour.attributes.language_id, langId);
  });

  test('a bare body works, users get source "api", day tickets accept a date', async () => {
    const res = await post({ items: [{ type: 'Ticket', attributes: { id: dayTicket, quantity: 1, time: day } }] }, user);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().order.source, 'api');
    assert.equal(res.json().order.items[0].price_cents, 500);
  });

  test('an embedded customer is created with the order', async () => {
    const res = await post({ customer: { name: 'Ada', surname: 'L', email: 'ada@example.org' }, items: [ticketItem(ticketId, 1)] });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(res.json().order.customer_id > 0);
  });

  test('anonymous 401, public token 403, user without orders:write 403', async () => {
    const body = { items: [ticketItem(ticketId, 1)] };
    assert.equal((await t.request({ method: 'POST', url: '/api/v4/orders', payload: body })).statusCode, 401);
    assert.equal((await post(body, await t.token({ class: 'public' }))).statusCode, 403);
    assert.equal((await post(body, await t.token({ class: 'user', rights: ['orders:read'] }))).statusCode, 403);
  });

  test('bad input is a clean 422 and writes nothing', async () => {
    const cases: Array<[unknown, string, RegExp?]> = [
      [{}, 'VALIDATION_FAILED', /items is required/],
      [{ finalize: false, items: [] }, 'VALIDATION_FAILED'],
      [{ items: 'x' }, 'VALIDATION_FAILED'],
      [{ items: [{ type: 'Bike', attributes: { id: 1, quantity: 1 } }] }, 'VALIDATION_FAILED'],
      [{ items: [ticketItem(999999)] }, 'VALIDATION_FAILED', /ticket 999999 not found/],
      [{ items: [ticketItem(ticketId, 0)] }, 'VALIDATION_FAILED'],
      [{ items: [ticketItem(ticketId, 1e12)] }, 'VALIDATION_FAILED'],
      [{ items: [ticketItem(ticketId, 'two' as unknown as number)] }, 'VALIDATION_FAILED'],
      [{ items: [ticketItem(ticketId, 1, { time: 'tomorrow' })] }, 'VALIDATION_FAILED', /ISO 8601/],
      [{ items: [ticketItem(ticketId, 1, { time: at(605) })] }, 'VALIDATION_FAILED'],
      [{ items: [ticketItem(ticketId, 101)] }, 'VALIDATION_FAILED', /at most 100/],
      [{ items: [ticketItem(ticketId, 2)], total: 1 }, 'TOTAL_MISMATCH', /2160/],
      [{ items: [ticketItem(ticketId, 2)], total: 'lots' }, 'VALIDATION_FAILED'],
      [{ items: [ticketItem(ticketId, 11)] }, 'QUANTITY_ABOVE_CAPACITY'],
      [{ items: [ticketItem(attendeeTicket, 2, { attendees: [{ name: 'A', surname: 'B' }] })] }, 'VALIDATION_FAILED', /exactly 2 attendees/],
      [{ items: [ticketItem(ticketId, 1), ticketItem(shopOnly, 1)] }, 'NOT_BOOKABLE', /not bookable in the current auth context/],
      [{ items: [{ type: 'Tour', attributes: { id: tourId, start_time: at(660), quantity: 2 } }] }, 'VALIDATION_FAILED', /language_id/],
      [{ items: [{ type: 'Tour', attributes: { id: tourId, start_time: at(660), language_id: langId + 99, quantity: 2 } }] }, 'LANGUAGE_NOT_AVAILABLE'],
      [{ customer: { name: 'x' }, items: [ticketItem(ticketId, 1)] }, 'VALIDATION_FAILED', /email can't be blank/],
      [{ items: [ticketItem(ticketId, 1, { time: zonedInstant(f.localDate(-2), 600, 'Europe/Berlin').toISOString() })] }, 'DATE_IN_PAST'],
    ];
    const beforeCounts = await counts();
    for (const [body, code, msg] of cases) {
      const res = await post(body);
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)} → ${res.body}`);
      const b = res.json();
      assert.equal(b.code, code, res.body);
      if (msg) assert.match(JSON.stringify(b), msg);
      assert.ok(typeof b.error === 'string' && b.request_id);
    }
    assert.deepEqual(await counts(), beforeCounts);
  });

  test('a ticket outside the reseller scope is not bookable; one attendee per unit is accepted', async () => {
    const q = await f.quota(db, { museumId: otherMuseum });
    const foreign = await f.ticket(db, { museumId: otherMuseum, quotaIds: [q.id] });
    const res = await post({ items: [ticketItem(foreign.id, 1)] });
    assert.equal(res.json().code, 'NOT_BOOKABLE');
    const ok = await post({ items: [ticketItem(attendeeTicket, 2, { attendees: [{ name: 'A', surname: 'B' }, { name: 'C', surname: 'D' }] })] });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.deepEqual(ok.json().order.items[0].attributes.attendees, [{ name: 'A', surname: 'B' }, { name: 'C', surname: 'D' }]);
  });

  test('sold out answers SLOT_SOLD_OUT', async () => {
    // 2 + 1 + 2 places of the 10 are taken by the orders above.
    const res = await post({ items: [ticketItem(ticketId, 6)] });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'SLOT_SOLD_OUT');
    assert.equal((await post({ items: [ticketItem(ticketId, 5)] })).statusCode, 201);
  });
});
