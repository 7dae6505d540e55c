// Reservations over HTTP: create (wrapped, bare, alias path), holds counting and expiring with
// the clock, PUT (grow re-checks, shrink, lifetime cap), DELETE, owner-only, token classes.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { isoInZone } from '../../src/domain/time.ts';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ now: '2026-05-04T06:00:00Z', env: { ATRIUM_HOLD_MINUTES: '15', ATRIUM_HOLD_MAX_MINUTES: '40' } });
after(() => t.close());
const db = t.database.db;
const m = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, capacity: 10 });
const ticket = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
const reseller = await t.token({ class: 'reseller' });
const other = await t.token({ class: 'reseller' });
const user = await t.token({ class: 'user', rights: ['orders:write'] });
const reader = await t.token({ class: 'user', rights: ['orders:read'] });
const pub = await t.token({ class: 'public' });

let day = 10;
/** A fresh slot (10:00 on a new day) per test, so tests do not share capacity. */
const slot = () => `2026-05-${String(day++).padStart(2, '0')}T10:00:00+02:00`;

const reserve = (body: unknown, token = reseller, url = '/api/v4/reservations') => t.request({ method: 'POST', url, payload: body as object, token });
const left = async (date: string, token?: string, tokens: string[] = []) => {
  const qs = tokens.map((x) => `&reservations[]=${x}`).join('');
  const res = await t.request({ method: 'GET', url: `/api/v4/tickets/${ticket.id}/capacity?date=${date}${qs}`, ...(token ? { token } : {}) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as Record<string, number>;
};

test('create: wrapped and bare bodies, alias path; the hold counts at once', async () => {
  const at = slot();
  const res = await reserve({ reservation: { ticket_id: ticket.id, quantity: 4, start_at: at } });
  assert.equal(res.statusCode, 201, res.body);
  const r = res.json().reservation;
  assert.equal(r.ticket_id, ticket.id);
  assert.equal(r.quantity, 4);
  assert.equal(r.start_at, at);
  assert.equal(r.valid_until, '2026-05-04T08:15:00+02:00'); // now (08:00 local) + 15 minutes
  assert.match(r.reservation_token, /^[A-Za-z0-9_-]{22,}$/);
  assert.equal((await left(at.slice(0, 10)))[at], 6);
  const bare = await reserve({ ticket_id: ticket.id, quantity: 6, start_at: at }, user, '/api/v4/tickets/reservations');
  assert.equal(bare.statusCode, 201, bare.body);
  assert.equal((await left(at.slice(0, 10)))[at], undefined); // sold out: omitted
  const refused = await reserve({ ticket_id: ticket.id, quantity: 1, start_at: at });
  assert.equal(refused.statusCode, 422);
  assert.equal(refused.json().code, 'SLOT_SOLD_OUT');
  // The caller's own hold counts as free for it.
  assert.equal((await left(at.slice(0, 10), reseller, [r.reservation_token]))[at], 4);
  // …but not another account's token.
  assert.equal((await left(at.slice(0, 10), other, [r.reservation_token]))[at], undefined);
});

test('an expired hold frees its places at once (no job, no sleep)', async () => {
  const at = slot();
  const res = await reserve({ reservation: { ticket_id: ticket.id, quantity: 10, start_at: at } });
  assert.equal(res.statusCode, 201);
  assert.equal((await reserve({ ticket_id: ticket.id, quantity: 1, start_at: at })).statusCode, 422);
  t.clock.advanceMinutes(15);
  assert.equal((await left(at.slice(0, 10)))[at], 10);
  const again = await reserve({ ticket_id: ticket.id, quantity: 10, start_at: at });
  assert.equal(again.statusCode, 201, again.body);
  const put = await t.request({ method: 'PUT', url: `/api/v4/reservations/${res.json().reservation.reservation_token}`, payload: { quantity: 1 }, token: reseller });
  assert.equal(put.statusCode, 422);
  assert.deepEqual([put.json().code, put.json().error], ['RESERVATION_EXPIRED', 'reservation not valid anymore']);
});

test('PUT changes the quantity, re-checks growth, restarts validity up to the lifetime cap', async () => {
  const at = slot();
  const created = t.clock.now().getTime();
  const iso = (ms: number) => isoInZone(new Date(ms), 'Europe/Berlin');
  const a = (await reserve({ ticket_id: ticket.id, quantity: 3, start_at: at })).json().reservation;
  await reserve({ ticket_id: ticket.id, quantity: 5, start_at: at }, user);
  const url = `/api/v4/reservations/${a.reservation_token}`;
  const grow = await t.request({ method: 'PUT', url, payload: { reservation: { quantity: 5 } }, token: reseller });
  assert.equal(grow.statusCode, 200, grow.body);
  assert.equal(grow.json().reservation.quantity, 5);
  const tooMuch = await t.request({ method: 'PUT', url, payload: { quantity: 6 }, token: reseller });
  assert.deepEqual([tooMuch.statusCode, tooMuch.json().code], [422, 'SLOT_SOLD_OUT']);
  assert.equal((await left(at.slice(0, 10)))[at], undefined); // the refused PUT changed nothing
  t.clock.advanceMinutes(10);
  const shrink = await t.request({ method: 'PUT', url: `/api/v4/tickets/reservations/${a.reservation_token}`, payload: { quantity: 2 }, token: reseller });
  assert.equal(shrink.statusCode, 200);
  assert.equal(shrink.json().reservation.valid_until, iso(created + 25 * 60_000)); // now + 15
  assert.equal((await left(at.slice(0, 10)))[at], 3);
  t.clock.advanceMinutes(14);
  const again = await t.request({ method: 'PUT', url, payload: { quantity: 2 }, token: reseller });
  assert.equal(again.json().reservation.valid_until, iso(created + 39 * 60_000));
  t.clock.advanceMinutes(14);
  const capped = await t.request({ method: 'PUT', url, payload: { quantity: 2 }, token: reseller });
  assert.equal(capped.json().reservation.valid_until, iso(created + 40 * 60_000)); // creation + 40 (cap)
});

test('DELETE releases at once; owner-only; unknown → 404', async () => {
  const at = slot();
  const a = (await reserve({ ticket_id: ticket.id, quantity: 10, start_at: at })).json().reservation;
  const url = `/api/v4/reservations/${a.reservation_token}`;
  for (const tok of [other, user]) {
    const res = await t.request({ method: 'DELETE', url, token: tok });
    assert.deepEqual([res.statusCode, res.json().error], [404, 'reservation not found']);
    assert.equal((await t.request({ method: 'PUT', url, payload: { quantity: 1 }, token: tok })).statusCode, 404);
  }
  assert.equal((await t.request({ method: 'DELETE', url: '/api/v4/reservations/nope', token: reseller })).statusCode, 404);
  const del = await t.request({ method: 'DELETE', url, token: reseller });
  assert.equal(del.statusCode, 204);
  assert.equal(del.body, '');
  assert.equal((await left(at.slice(0, 10)))[at], 10);
  assert.equal((await t.request({ method: 'DELETE', url, token: reseller })).statusCode, 204); // repeat: harmless
  assert.equal((await t.request({ method: 'PUT', url, payload: { quantity: 1 }, token: reseller })).json().code, 'RESERVATION_EXPIRED');
});

test('who may write: anonymous 401, public token 403, user without orders:write 403', async () => {
  const body = { ticket_id: ticket.id, quantity: 1, start_at: slot() };
  assert.equal((await t.request({ method: 'POST', url: '/api/v4/reservations', payload: body })).statusCode, 401);
  assert.equal((await reserve(body, pub)).statusCode, 403);
  assert.equal((await reserve(body, reader)).statusCode, 403);
});

test('refusals: not bookable in context, bad times, bad bodies — nothing is written', async () => {
  const backOffice = await f.ticket(db, { museumId: m.id, salesChannels: [] });
  const shopOnly = await f.ticket(db, { museumId: m.id, salesChannels: ['shop'] });
  const at = slot();
  for (const [id, tok] of [[backOffice.id, reseller], [shopOnly.id, reseller]] as const) {
    const res = await reserve({ ticket_id: id, quantity: 1, start_at: at }, tok);
    assert.deepEqual([res.statusCode, res.json().code, res.json().error], [422, 'NOT_BOOKABLE', 'ticket not bookable in the current auth context']);
  }
  assert.equal((await reserve({ ticket_id: backOffice.id, quantity: 1, start_at: at }, user)).statusCode, 201); // users see all
  const cases: Array<[unknown, string]> = [
    [{ ticket_id: ticket.id, quantity: 1, start_at: at.replace('10:00', '10:10') }, 'VALIDATION_FAILED'],
    [{ ticket_id: ticket.id, quantity: 1, start_at: '2026-05-01T10:00:00+02:00' }, 'DATE_IN_PAST'],
    [{ ticket_id: ticket.id, quantity: 11, start_at: at }, 'QUANTITY_ABOVE_CAPACITY'],
    [{ ticket_id: ticket.id, quantity: 1 }, 'VALIDATION_FAILED'],
    [{ ticket_id: ticket.id, quantity: 1, start_at: 'tomorrow' }, 'VALIDATION_FAILED'],
    [{ ticket_id: ticket.id, quantity: 0, start_at: at }, 'VALIDATION_FAILED'],
    [{ ticket_id: 999999, quantity: 1, start_at: at }, 'VALIDATION_FAILED'],
    [{ quantity: 1 }, 'VALIDATION_FAILED'],
  ];
  for (const [body, code] of cases) {
    const res = await reserve(body);
    assert.deepEqual([res.statusCode, res.json().code], [422, code], JSON.stringify(body) + res.body);
  }
  assert.equal((await left(at.slice(0, 10)))[at], 10);
});

test('event dates: hold seats by date_id', async () => {
  const ev = await f.event(db, { museumId: m.id });
  const d = await f.eventDate(db, { eventId: ev.id, startAt: new Date('2026-06-01T16:00:00Z'), seatsMax: 5, maxPerRegistration: 4 });
  const res = await reserve({ reservation: { date_id: d.id, quantity: 4 } });
  assert.equal(res.statusCode, 201, res.body);
  assert.deepEqual({ ...res.json().reservation, reservation_token: 'x', token: 'x', valid_until: 'x' }, {
    reservation_token: 'x', token: 'x', date_id: d.id, quantity: 4, start_at: '2026-06-01T18:00:00+02:00', valid_until: 'x',
  });
  assert.equal((await reserve({ date_id: d.id, quantity: 2 })).json().code, 'SLOT_SOLD_OUT');
  assert.equal((await reserve({ date_id: d.id, quantity: 5 })).json().code, 'VALIDATION_FAILED');
});
