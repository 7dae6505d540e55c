// go~mus GET /tickets/calendar?depth=all: per day the quotas of the tickets with places left per
// slot, slot keys in the format go~mus documents for this answer; the same numbers as
// /tickets/capacities (one rule), across a DST change; depth=any unchanged; bad depth is a 422.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';
import { rubyTime } from '../../src/domain/availability/getTicketCalendarQuotas.ts';

const t = await testApp({ now: '2026-03-27T09:05:00Z' }); // Friday 10:05 CET; DST starts Sunday 29th
after(() => t.close());
const db = t.database.db;
const m = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, capacity: 20 });
const dayQ = await f.quota(db, { museumId: m.id, kind: 'day', capacity: 100 });
const slotT = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], firstEntry: 600, lastEntry: 630 });
const dayT = await f.ticket(db, { museumId: m.id, ticketType: 'normal', firstEntry: 540, lastEntry: 1020, quotaIds: [dayQ.id] });
const reseller = await t.token({ class: 'reseller' });

const get = async (url: string, token?: string) => {
  const res = await t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};

test('depth=all: per day each quota with its tickets and places left per slot, go~mus time format', async () => {
  const held = await t.request({ method: 'POST', url: '/api/v4/reservations', token: reseller, payload: { ticket_id: slotT.id, quantity: 3, start_at: '2026-03-30T10:30:00+02:00' } });
  assert.equal(held.statusCode, 201, held.body);
  const r = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&by_ticket_ids[]=${dayT.id}&start_at=2026-03-28&end_at=2026-03-30&depth=all`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.headers['cache-control'], 'no-store');
  assert.deepEqual(Object.keys(r.body.data), ['2026-03-28', '2026-03-29', '2026-03-30']);
  assert.deepEqual(r.body.data['2026-03-28'], [
    { quota: { id: q.id, tickets: [slotT.id], capacities: [{ '2026-03-28 10:00:00 +0100': 20 }, { '2026-03-28 10:30:00 +0100': 20 }] } },
    { quota: { id: dayQ.id, tickets: [dayT.id], capacities: [{ '2026-03-28 09:00:00 +0100': 100 }] } },
  ]);
  // After the DST change the offset is +0200, and the hold counts.
  assert.deepEqual(r.body.data['2026-03-30'][0].quota.capacities, [{ '2026-03-30 10:00:00 +0200': 20 }, { '2026-03-30 10:30:00 +0200': 17 }]);
});

test('depth=all agrees with /tickets/capacities for the same day', async () => {
  const cal = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-03-30&end_at=2026-03-30&depth=all`);
  const caps = await get(`/tickets/capacities?ticket_ids[]=${slotT.id}&date=2026-03-30`);
  const fromCaps = Object.entries(caps.body.data[String(q.id)].capacities as Record<string, number>).map(([iso, n]) => ({ [rubyTime(new Date(iso), 'Europe/Berlin')]: n }));
  assert.deepEqual(cal.body.data['2026-03-30'][0].quota.capacities, fromCaps);
});

test('depth=all over a year: every day as /tickets/capacities answers it, holds late in the range included', async () => {
  const held = await t.request({ method: 'POST', url: '/api/v4/reservations', token: reseller, payload: { ticket_id: slotT.id, quantity: 5, start_at: '2026-12-01T10:00:00+01:00' } });
  assert.equal(held.statusCode, 201, held.body);
  const ids = `ticket_ids[]=${slotT.id}&ticket_ids[]=${dayT.id}`;
  const cal = await get(`/tickets/calendar?by_${ids.replace('&', '&by_')}&start_at=2026-03-28&end_at=2027-03-28&depth=all`);
  assert.equal(cal.status, 200, JSON.stringify(cal.body));
  assert.equal(Object.keys(cal.body.data).length, 366);
  for (const day of ['2026-03-30', '2026-07-15', '2026-12-01', '2027-03-28']) {
    const caps = await get(`/tickets/capacities?${ids}&date=${day}`);
    const fromCaps = Object.entries(caps.body.data as Record<string, { tickets: number[]; capacities: Record<string, number> }>).map(([id, g]) => ({
      quota: { id: Number(id), tickets: g.tickets, capacities: Object.entries(g.capacities).map(([iso, n]) => ({ [rubyTime(new Date(iso), 'Europe/Berlin')]: n })) },
    }));
    assert.deepEqual(cal.body.data[day], fromCaps, day);
  }
  assert.deepEqual(cal.body.data['2026-12-01'][0].quota.capacities, [{ '2026-12-01 10:00:00 +0100': 15 }, { '2026-12-01 10:30:00 +0100': 20 }]);
});

test('depth=any (and no depth) still answers booleans; a bad depth or a range over 366 days is a 422', async () => {
  const plain = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-03-28&end_at=2026-03-29`);
  const any = await get(`/tickets/calendar?by_ticket_ids[]=${slotT.id}&start_at=2026-03-28&end_at=2026-03-29&depth=any`);
  assert.deepEqual(plain.body, { data: { '2026-03-28': true, '2026-03-29': true } });
  assert.deepEqual(any.body, plain.body);
  assert.equal((await get('/tickets/calendar?depth=deep')).status, 422);
  assert.equal((await get('/tickets/calendar?depth=all&start_at=2026-03-28&end_at=2027-03-29')).status, 422);
});

test('rubyTime: offsets without a colon, UTC as +0000', () => {
  assert.equal(rubyTime(new Date('2016-07-06T09:00:00Z'), 'Europe/Berlin'), '2016-07-06 11:00:00 +0200');
  assert.equal(rubyTime(new Date('2016-07-06T09:00:00Z'), 'UTC'), '2016-07-06 09:00:00 +0000');
  assert.equal(rubyTime(new Date('2016-07-06T09:00:00Z'), 'America/New_York'), '2016-07-06 05:00:00 -0400');
});
