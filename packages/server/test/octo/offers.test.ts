// Events and tours over OCTO (docs/octo.md, "Mapping"), walking the validator's scenarios for an
// event and a tour: products, calendar, availability, reserve → extend → confirm → get → cancel,
// every answer checked against @octocloud/types' zod schemas, with and without octo/pricing;
// a sold-out event date, LIMITED under half, unknown option ids.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { orderItems } from '../../src/db/schema/index.ts';
import * as f from '../helpers/factories.ts';
import { octo, octoError, octoWorld, valid } from './helpers.ts';

const w = await octoWorld();
after(() => w.t.close());
const db = w.t.database.db;
const m = await f.museum(db);
const ev = await f.event(db, { museumId: m.id, priceCents: 800, vatPct: 7 });
// 15:00 in Berlin on Thursday and Friday; Friday's date has two seats only.
const big = await f.eventDate(db, { eventId: ev.id, startAt: new Date('2026-12-03T14:00:00Z'), seatsMax: 20 });
await f.eventDate(db, { eventId: ev.id, startAt: new Date('2026-12-04T14:00:00Z'), seatsMax: 2 });
const de = await f.language(db, { code: 'xde', name: 'Deutsch' });
const en = await f.language(db, { code: 'xen', name: 'English' });
const tour = await f.tour(db, {
  museumId: m.id, title: { de: 'Architekturrundgang', en: 'Architecture walk' }, pricing: 'person', priceCents: 1500, vatPct: 19,
  maxPersons: 10, windowStart: 600, windowEnd: 900, step: 60, duration: 60, languageIds: [de.id, en.id],
});
const solo = await f.tour(db, { museumId: m.id, languageIds: [de.id] });
const EVENT = `event-${ev.id}`;
const TOUR = `tour-${tour.id}`;
const PRICING = { headers: { 'octo-capabilities': 'octo/pricing' } };
const units = (n: number, unitId = 'adult') => Array.from({ length: n }, () => ({ unitId }));
const contact = { fullName: 'Erika Mustermann', emailAddress: 'erika@example.com' };
const booking = (b: any, what: string, pricing = false) => valid(pricing ? octo.zBooking.and(octo.zBookingPricing) : octo.zBooking, b, what);

test('events and tours are START_TIME products next to the tickets, ids apart', async () => {
  const res = await w.call('GET', '/products');
  const ids = res.body.map((p: any) => p.id);
  for (const id of [w.slotted, EVENT, TOUR, `tour-${solo.id}`]) assert.ok(ids.includes(id), id);
  for (const p of res.body) valid(octo.zProduct, p, `product ${p.id}`);
  const e = res.body.find((p: any) => p.id === EVENT);
  assert.equal(e.availabilityType, 'START_TIME');
  assert.deepEqual(e.options.map((o: any) => o.id), ['DEFAULT']);
  assert.deepEqual(e.options[0].availabilityLocalStartTimes, ['15:00']);
  const t = res.body.find((p: any) => p.id === TOUR);
  assert.deepEqual(t.options.map((o: any) => o.id), ['lang-xde', 'lang-xen']);
  assert.deepEqual(t.options[0].availabilityLocalStartTimes, ['10:00', '11:00', '12:00', '13:00', '14:00', '15:00']);
  assert.deepEqual(t.options[0].restrictions, { minUnits: 1, maxUnits: 10 });
  assert.deepEqual(res.body.find((p: any) => p.id === `tour-${solo.id}`).options.map((o: any) => o.id), ['DEFAULT']);
  for (const id of [EVENT, TOUR]) {
    const p = await w.call('GET', `/products/${id}`, undefined, PRICING);
    valid(octo.zProduct.and(octo.zProductPricing), p.body, `${id} with pricing`);
    const c = await w.call('GET', `/products/${id}`, undefined, { headers: { 'octo-capabilities': 'octo/content', 'accept-language': 'en' } });
    valid(octo.zProduct.and(octo.zProductContent), c.body, `${id} with content`);
  }
  const priced = (await w.call('GET', `/products/${TOUR}`, undefined, PRICING)).body;
  assert.equal(priced.options[0].units[0].pricingFrom[0].retail, 1500);
  // A group-priced tour is priced per booking.
  assert.equal((await w.call('GET', `/products/tour-${solo.id}`, undefined, PRICING)).body.pricingPer, 'BOOKING');
  octoError(await w.call('GET', '/products/event-999999'), 'INVALID_PRODUCT_ID', ['productId', 'event-999999']);
});

test('event: calendar and availability, reserve → confirm → get → cancel, sold out, LIMITED', async () => {
  const cal = await w.call('POST', '/availability/calendar', { productId: EVENT, optionId: 'DEFAULT', localDateStart: '2026-12-02', localDateEnd: '2026-12-04' });
  assert.equal(cal.status, 200, JSON.stringify(cal.body));
  for (const d of cal.body) valid(octo.zAvailabilityCalendar, d, 'calendar day');
  assert.deepEqual(cal.body.map((d: any) => d.status), ['CLOSED', 'AVAILABLE', 'AVAILABLE']);
  const avail = await w.call('POST', '/availability', { productId: EVENT, optionId: 'DEFAULT', localDateStart: '2026-12-03', localDateEnd: '2026-12-04' }, PRICING);
  for (const a of avail.body) valid(octo.zAvailability.and(octo.zAvailabilityPricing), a, 'availability');
  assert.deepEqual(avail.body.map((a: any) => a.id), ['2026-12-03T15:00', '2026-12-04T15:00']);
  assert.equal(avail.body[0].localDateTimeStart, '2026-12-03T15:00:00+01:00');

  const body = { productId: EVENT, optionId: 'DEFAULT', availabilityId: '2026-12-04T15:00', unitItems: units(2) };
  const r = await w.call('POST', '/bookings', body, PRICING);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  booking(r.body, 'event reservation', true);
  assert.equal(r.body.status, 'ON_HOLD');
  assert.equal(r.body.pricing.retail, 1600);
  const ext = await w.call('POST', `/bookings/${r.body.uuid}/extend`, { expirationMinutes: 31 });
  booking(ext.body, 'event extended');
  const c = await w.call('POST', `/bookings/${r.body.uuid}/confirm`, { contact });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  booking(c.body, 'event confirmed');
  assert.equal(c.body.status, 'CONFIRMED');
  assert.ok(c.body.unitItems.every((u: any) => u.ticket.deliveryOptions.some((o: any) => o.deliveryFormat === 'QRCODE')));
  booking((await w.call('GET', `/bookings/${r.body.uuid}`)).body, 'event get');

  // Both seats of Friday's date are taken: sold out in the calendar, the availability and reserve.
  const day = await w.call('POST', '/availability', { productId: EVENT, optionId: 'DEFAULT', localDate: '2026-12-04' });
  assert.deepEqual([day.body[0].status, day.body[0].available, day.body[0].vacancies], ['SOLD_OUT', false, 0]);
  const cal2 = await w.call('POST', '/availability/calendar', { productId: EVENT, optionId: 'DEFAULT', localDateStart: '2026-12-04', localDateEnd: '2026-12-04' });
  assert.equal(cal2.body[0].status, 'SOLD_OUT');
  octoError(await w.call('POST', '/bookings', { ...body, unitItems: units(1) }), 'UNPROCESSABLE_ENTITY');

  // 11 of 20 seats held: under half left.
  const held = await w.call('POST', '/bookings', { ...body, availabilityId: '2026-12-03T15:00', unitItems: units(11) });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  const limited = await w.call('POST', '/availability', { productId: EVENT, optionId: 'DEFAULT', availabilityIds: ['2026-12-03T15:00'] });
  assert.deepEqual([limited.body[0].status, limited.body[0].vacancies], ['LIMITED', 9]);
  assert.equal(big.seatsMax, 20);

  const x = await w.call('POST', `/bookings/${r.body.uuid}/cancel`, { reason: 'plans changed' });
  booking(x.body, 'event cancelled');
  assert.equal(x.body.status, 'CANCELLED');
  const back = await w.call('POST', '/availability', { productId: EVENT, optionId: 'DEFAULT', localDate: '2026-12-04' });
  assert.equal(back.body[0].status, 'AVAILABLE');
});

test('tour: a language option, reserve → extend → confirm → get → cancel, one run per start', async () => {
  const cal = await w.call('POST', '/availability/calendar', { productId: TOUR, optionId: 'lang-xen', localDateStart: '2026-12-03', localDateEnd: '2026-12-03' }, PRICING);
  for (const d of cal.body) valid(octo.zAvailabilityCalendar.and(octo.zAvailabilityCalendarPricing), d, 'tour calendar day');
  assert.equal(cal.body[0].status, 'AVAILABLE');
  const avail = await w.call('POST', '/availability', { productId: TOUR, optionId: 'lang-xen', localDate: '2026-12-03' });
  for (const a of avail.body) valid(octo.zAvailability, a, 'tour availability');
  assert.deepEqual(avail.body.map((a: any) => a.id.slice(11)), ['10:00', '11:00', '12:00', '13:00', '14:00', '15:00']);

  const body = { productId: TOUR, optionId: 'lang-xen', availabilityId: '2026-12-03T10:00', unitItems: units(3) };
  const r = await w.call('POST', '/bookings', body);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  booking(r.body, 'tour reservation');
  assert.equal(r.body.optionId, 'lang-xen');
  assert.equal(r.body.option.id, 'lang-xen');
  const ext = await w.call('POST', `/bookings/${r.body.uuid}/extend`, { expirationMinutes: 31 });
  booking(ext.body, 'tour extended');
  // max_concurrent 1: the start now has no room for another run, in either language.
  const taken = await w.call('POST', '/availability', { productId: TOUR, optionId: 'lang-xde', availabilityIds: ['2026-12-03T10:00'] });
  assert.equal(taken.body[0].status, 'SOLD_OUT');
  octoError(await w.call('POST', '/bookings', { ...body, optionId: 'lang-xde' }), 'UNPROCESSABLE_ENTITY');
  const c = await w.call('POST', `/bookings/${r.body.uuid}/confirm`, { contact, unitItems: units(4) }, PRICING);
  assert.equal(c.status, 200, JSON.stringify(c.body));
  booking(c.body, 'tour confirmed', true);
  assert.equal(c.body.unitItems.length, 4);
  assert.equal(c.body.pricing.retail, 6000);
  const got = await w.call('GET', `/bookings/${r.body.uuid}`);
  booking(got.body, 'tour get');
  // The order item books the option's language.
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, Number(got.body.supplierReference)));
  assert.deepEqual(items.filter((i) => i.status === 'active').map((i) => [i.type, i.tourId, i.languageId, i.quantity]), [['Tour', tour.id, en.id, 4]]);
  const x = await w.call('POST', `/bookings/${r.body.uuid}/cancel`, {});
  assert.equal(x.body.status, 'CANCELLED');
  const free = await w.call('POST', '/availability', { productId: TOUR, optionId: 'lang-xde', availabilityIds: ['2026-12-03T10:00'] });
  assert.equal(free.body[0].status, 'AVAILABLE');
});

test('unknown option, unit and availability ids of events and tours', async () => {
  const base = { localDate: '2026-12-03' };
  octoError(await w.call('POST', '/availability', { productId: EVENT, optionId: 'invalidOptionId', ...base }), 'INVALID_OPTION_ID', ['optionId', 'invalidOptionId']);
  // A tour with several languages has no DEFAULT option.
  octoError(await w.call('POST', '/availability', { productId: TOUR, optionId: 'DEFAULT', ...base }), 'INVALID_OPTION_ID', ['optionId', 'DEFAULT']);
  octoError(await w.call('POST', '/availability/calendar', { productId: TOUR, optionId: 'nope', localDateStart: '2026-12-03', localDateEnd: '2026-12-03' }), 'INVALID_OPTION_ID');
  octoError(await w.call('POST', '/bookings', { productId: EVENT, optionId: 'invalidOptionId', availabilityId: '2026-12-03T15:00', unitItems: units(1) }), 'INVALID_OPTION_ID');
  octoError(await w.call('POST', '/bookings', { productId: EVENT, optionId: 'DEFAULT', availabilityId: '2026-12-03T15:00', unitItems: units(1, 'child') }), 'INVALID_UNIT_ID', ['unitId', 'child']);
  octoError(await w.call('POST', '/bookings', { productId: EVENT, optionId: 'DEFAULT', availabilityId: '2026-12-03T16:00', unitItems: units(1) }), 'INVALID_AVAILABILITY_ID', ['availabilityId', '2026-12-03T16:00']);
  octoError(await w.call('POST', '/bookings', { productId: TOUR, optionId: 'lang-xen', availabilityId: '2026-12-03T10:30', unitItems: units(1) }), 'INVALID_AVAILABILITY_ID');
});

test('PATCH moves an event booking to another date; an unknown option is refused', async () => {
  const r = await w.call('POST', '/bookings', { productId: EVENT, optionId: 'DEFAULT', availabilityId: '2026-12-03T15:00', unitItems: units(1) });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const moved = await w.call('PATCH', `/bookings/${r.body.uuid}`, { availabilityId: '2026-12-04T15:00' });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  booking(moved.body, 'event moved');
  assert.equal(moved.body.availability.id, '2026-12-04T15:00');
  assert.notEqual(moved.body.supplierReference, r.body.supplierReference);
  octoError(await w.call('PATCH', `/bookings/${r.body.uuid}`, { optionId: 'invalidOptionId' }), 'INVALID_OPTION_ID');
  assert.equal((await w.call('GET', `/bookings/${r.body.uuid}`)).body.availabilityId, '2026-12-04T15:00');
});
