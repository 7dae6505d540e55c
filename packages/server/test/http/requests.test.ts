// Group booking requests, creation: shape, access, validation with nested contact/customer
// messages and nothing written, hostile input. Duplicates and reads: requests.reads.test.ts.
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
const at = (min: number, d = day) => zonedInstant(d, min, 'Europe/Berlin').toISOString();
let tourId: number, otherTourId: number, shopTourId: number, langId: number, otherLang: number;
let museumA: number, museumB: number;
let reseller: string, other: string, staffA: string, reader: string, noRights: string, publicToken: string;

const post = (body: object, token = reseller) => t.request({ method: 'POST', url: '/api/v4/requests', token, payload: body });
const get = (url: string, token = reseller) => t.request({ method: 'GET', url: `/api/v4${url}`, token });
const anna = { name: 'Anna', surname: 'Müller', email: 'anna@example.org' };
const valid = (extra: object = {}) => ({
  date: day,
  participants: 12,
  items: [{ tour_id: tourId, start_time: at(660), language_id: langId }],
  customer: anna,
  ...extra,
});
async function counts() {
  const r = await db.execute<{ r: number; i: number; c: number }>(sql`select
    (select count(*)::int from requests) r, (select count(*)::int from request_items) i, (select count(*)::int from customers) c`);
  return r.rows[0]!;
}

before(async () => {
  museumA = (await f.museum(db)).id;
  museumB = (await f.museum(db)).id;
  langId = (await f.language(db)).id;
  otherLang = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId: museumA, languageIds: [langId] })).id;
  otherTourId = (await f.tour(db, { museumId: museumB, languageIds: [langId] })).id;
  shopTourId = (await f.tour(db, { museumId: museumA, languageIds: [langId], salesChannels: ['shop'] })).id;
  reseller = await t.token({ class: 'reseller' });
  other = await t.token({ class: 'reseller' });
  staffA = await t.token({ class: 'user', museumIds: [museumA], rights: ['requests:write'] });
  reader = await t.token({ class: 'user', rights: ['requests:read'] });
  noRights = await t.token({ class: 'user', rights: ['orders:write'] });
  publicToken = await t.token({ class: 'public' });
});

describe('POST /requests', () => {
  test('creates a pending request (wrapped or bare) with every field of the record', async () => {
    const contact = { name: 'Bea', surname: 'Lehrerin', email: 'bea@school.example', role: 'teacher' };
    const res = await post({ request: valid({ foreign_id: 'rq-1', companions: 2, notes: ' Class 7b ', contact }) });
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json().request;
    assert.deepEqual(Object.keys(r).sort(), [
      'companions', 'contact', 'created_at', 'customer_id', 'date', 'decline_reason', 'foreign_id', 'id', 'items',
      'notes', 'order_id', 'participants', 'status', 'updated_at',
    ]);
    assert.equal(r.status, 'pending');
    assert.deepEqual([r.foreign_id, r.date, r.participants, r.companions, r.notes], ['rq-1', day, 12, 2, 'Class 7b']);
    assert.equal(r.items.length, 1);
    assert.deepEqual([r.items[0].tour_id, r.items[0].language_id], [tourId, langId]);
    assert.equal(new Date(r.items[0].start_time).toISOString(), at(660));
    assert.match(r.items[0].start_time, /T11:00:00\+0[12]:00$/);
    assert.deepEqual(r.contact, { name: 'Bea', surname: 'Lehrerin', email: 'bea@school.example', phone: null, role: 'teacher' });
    assert.deepEqual([r.order_id, r.decline_reason], [null, null]);
    assert.ok(r.customer_id > 0);
    const bare = await post(valid({ customer_id: r.customer_id, customer: undefined }));
    assert.equal(bare.statusCode, 201, bare.body);
    assert.equal(bare.json().request.customer_id, r.customer_id);
    assert.equal(bare.json().request.contact, null);
  });

  test('who may write: anonymous 401, public 403, user without requests:write 403, staff 201', async () => {
    assert.equal((await t.request({ method: 'POST', url: '/api/v4/requests', payload: valid() })).statusCode, 401);
    assert.equal((await post(valid(), publicToken)).statusCode, 403);
    assert.equal((await post(valid(), noRights)).statusCode, 403);
    assert.equal((await post(valid(), reader)).statusCode, 403);
    assert.equal((await post(valid(), staffA)).statusCode, 201);
  });

  test('validation lists every problem, contact and customer messages nested, and writes nothing', async () => {
    const before = await counts();
    const res = await post({
      date: f.localDate(-1),
      participants: 0,
      companions: -1,
      items: [],
      customer: { name: 'Anna', phone: '123' },
      contact: { name: '', email: 'not-an-email', phone: '12' },
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'request could not be saved');
    assert.equal(res.json().code, 'VALIDATION_FAILED');
    assert.deepEqual(res.json().errors, [
      "Date can't be in the past",
      'Participants must be greater than or equal to 1',
      'Companions must be greater than or equal to 0',
      "Items can't be blank",
      "Contact name can't be blank",
      'Contact email is invalid',
      'Contact phone is too short (minimum is 5 characters)',
      "Customer surname can't be blank",
      "Customer email can't be blank",
      'Customer phone is too short (minimum is 5 characters)',
    ]);
    assert.deepEqual(await counts(), before);
  });

  test('missing fields get Rails-style messages; a contact needs email or phone', async () => {
    const before = await counts();
    const res = await post({ contact: { name: 'Bea' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [
      "Date can't be blank",
      "Participants can't be blank",
      "Items can't be blank",
      "Contact email or phone can't be blank",
      "Customer can't be blank",
    ]);
    // Only the contact is wrong: the request row inserted first is rolled back, with the customer.
    const onlyContact = await post(valid({ contact: { name: 'Bea', phone: '+49 30 1234567', email: 'x@y' } }));
    assert.deepEqual(onlyContact.json().errors, ['Contact email is invalid']);
    const onlyCustomer = await post(valid({ customer: { ...anna, email: 'nope' } }));
    assert.deepEqual(onlyCustomer.json().errors, ['Customer email is invalid']);
    assert.deepEqual(await counts(), before);
  });

  test('items: start on the date and on the tour grid, participants within the tour limits', async () => {
    const before = await counts();
    const res = await post(valid({
      participants: 30,
      items: [
        { tour_id: tourId, start_time: at(660, f.localDate(6)), language_id: langId },
        { tour_id: tourId, start_time: at(667), language_id: langId },
        { tour_id: tourId, start_time: 'soon', language_id: langId },
        { tour_id: 999999, start_time: at(660), language_id: langId },
      ],
    }));
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [
      `items[0]: tour ${tourId} takes at most 25 participants`,
      `items[0] start_time is not on the requested date ${day}`,
      `items[1]: tour ${tourId} takes at most 25 participants`,
      `items[1] start_time is not a start time of tour ${tourId}`,
      `items[2]: tour ${tourId} takes at most 25 participants`,
      'items[2] start_time must be an ISO 8601 timestamp',
      'items[3]: tour 999999 not found',
    ]);
    assert.deepEqual(await counts(), before);
  });

  test('a tour the caller may not book, or without the language, is a 422 with its code', async () => {
    const before = await counts();
    const hidden = await post(valid({ items: [{ tour_id: shopTourId, start_time: at(660), language_id: langId }] }));
    assert.equal(hidden.statusCode, 422);
    assert.equal(hidden.json().code, 'NOT_BOOKABLE');
    const lang = await post(valid({ items: [{ tour_id: tourId, start_time: at(660), language_id: otherLang }] }));
    assert.equal(lang.json().code, 'LANGUAGE_NOT_AVAILABLE');
    const scope = await post(valid({ items: [{ tour_id: otherTourId, start_time: at(660), language_id: langId }] }), staffA);
    assert.equal(scope.json().code, 'NOT_BOOKABLE');
    const wrongType = await post(valid({ participants: 'many' }));
    assert.equal(wrongType.statusCode, 422);
    assert.equal(wrongType.json().code, 'VALIDATION_FAILED');
    assert.deepEqual(await counts(), before);
  });

  test('an unknown customer_id is 404 "customer not found", another reseller\'s customer too', async () => {
    assert.equal((await post(valid({ customer: undefined, customer_id: 999999 }))).json().error, 'customer not found');
    const mine = (await post(valid())).json().request.customer_id;
    const res = await post(valid({ customer: undefined, customer_id: mine }), other);
    assert.equal(res.statusCode, 404);
  });
});

describe('hostile input', () => {
  test('NUL and control characters are a 422, never a database error, and write nothing', async () => {
    const before = await counts();
    const cases: Array<[object, string]> = [
      [valid({ foreign_id: 'a\u0000b' }), 'Foreign id is invalid'],
      [valid({ notes: 'line\u0000' }), 'Notes is invalid'],
      [valid({ contact: { name: 'Bea', phone: '+49 30 123456', role: 'x\u0000' } }), 'Contact role is invalid'],
      [valid({ contact: { name: 'B\u0000', phone: '+49 30 123456' } }), 'Contact name is invalid'],
      [valid({ items: [{ tour_id: tourId, start_time: '2026\u0000', language_id: langId }] }), 'items[0] start_time must be an ISO 8601 timestamp'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      // NUL may already be refused by a body-wide guard; then with its own message.
      assert.ok(res.json().errors.includes(message) || /NUL/.test(res.body), res.body);
    }
    const ctl = await post(valid({ foreign_id: 'a\u0001b' }));
    assert.deepEqual([ctl.statusCode, ctl.json().errors], [422, ['Foreign id is invalid']]);
    assert.equal((await get('/requests?foreign_id=a%00b')).statusCode, 422);
    assert.deepEqual(await counts(), before);
    const req = (await post(valid())).json().request;
    const staff = await t.token({ class: 'user', rights: ['requests:write'] });
    const res = await t.request({ method: 'POST', url: `/api/v4/requests/${req.id}/decline`, token: staff, payload: { reason: 'no\u0000' } });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'VALIDATION_FAILED');
    const tab = await t.request({ method: 'POST', url: `/api/v4/requests/${req.id}/decline`, token: staff, payload: { reason: 'a\tb' } });
    assert.equal(tab.json().request.decline_reason, 'a\tb');
  });
});
