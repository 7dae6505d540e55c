// OCTO bookings walking the official validator's scenarios (reserve, extend, confirm, update,
// cancel, get, list and their error cases), every answer checked against @octocloud/types' zod
// Booking schema, with and without octo/pricing; plus what Atrium adds: idempotent reserve,
// another reseller's booking, confirm after the hold expired, cancel after the cutoff, test mode
// out of the reports, and the same order record the go~mus API and the console show.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { salesReport } from '../../src/domain/reports/sales.ts';
import { staffCtx } from '../reports/support.ts';
import { octo, octoError, octoWorld, valid, UUID_RE } from './helpers.ts';

const w = await octoWorld({ env: { ATRIUM_ORDER_PENDING_MINUTES: '30', ATRIUM_HOLD_MAX_MINUTES: '90' } });
after(() => w.t.close());

const booking = (b: any, what: string) => valid(octo.zBooking, b, what);
const reserve = (over: Record<string, unknown> = {}, o: { token?: string; headers?: Record<string, string> } = {}) =>
  w.call('POST', '/bookings', { productId: w.slotted, optionId: 'DEFAULT', availabilityId: '2026-12-04T10:00', notes: 'Test note', unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }], ...over }, o);
const units = (n: number) => Array.from({ length: n }, () => ({ unitId: 'adult' }));
const contact = { fullName: 'Erika Mustermann', firstName: 'Erika', lastName: 'Mustermann', emailAddress: 'erika@example.com', notes: 'window seat' };

test('Booking Reservation and its error cases', async () => {
  const r = await reserve();
  assert.equal(r.status, 200, JSON.stringify(r.body));
  booking(r.body, 'reservation');
  assert.equal(r.body.status, 'ON_HOLD');
  assert.match(r.body.uuid, UUID_RE);
  assert.equal(r.body.notes, 'Test note');
  assert.equal(r.body.availability.id, '2026-12-04T10:00');
  assert.equal(r.body.unitItems.length, 2);
  assert.equal(new Set(r.body.unitItems.map((u: any) => u.uuid)).size, 2);
  assert.ok(r.body.utcExpiresAt);
  octoError(await reserve({ productId: 'invalidProductId' }), 'INVALID_PRODUCT_ID', ['productId', 'invalidProductId']);
  octoError(await reserve({ optionId: 'invalidOptionId' }), 'INVALID_OPTION_ID', ['optionId', 'invalidOptionId']);
  octoError(await reserve({ availabilityId: 'invalidAvailabilityId' }), 'INVALID_AVAILABILITY_ID', ['availabilityId', 'invalidAvailabilityId']);
  octoError(await reserve({ unitItems: undefined }), 'UNPROCESSABLE_ENTITY');
  octoError(await reserve({ unitItems: [] }), 'UNPROCESSABLE_ENTITY');
  octoError(await reserve({ unitItems: [{ unitId: 'invalidUnitId' }] }), 'INVALID_UNIT_ID', ['unitId', 'invalidUnitId']);
  const priced = await reserve({}, { headers: { 'octo-capabilities': 'octo/pricing' } });
  valid(octo.zBooking.and(octo.zBookingPricing), priced.body, 'reservation with pricing');
  assert.equal(priced.body.pricing.retail, 2800);
  assert.equal(priced.body.pricing.net, 2400);
});

test('Booking Reservation SOLD_OUT; the same reserve sent three times is one hold', async () => {
  const uuid = randomUUID();
  const small = { productId: w.small, availabilityId: '2026-12-04T11:00', unitItems: units(2), uuid };
  const sends = await Promise.all([reserve(small), reserve(small), reserve(small)]);
  for (const s of sends) assert.equal(s.status, 200, JSON.stringify(s.body));
  assert.deepEqual(new Set(sends.map((s) => s.body.uuid)), new Set([uuid]));
  assert.equal(new Set(sends.map((s) => s.body.supplierReference)).size, 1);
  const avail = await w.call('POST', '/availability', { productId: w.small, optionId: 'DEFAULT', availabilityIds: ['2026-12-04T11:00'] });
  assert.deepEqual([avail.body[0].status, avail.body[0].available, avail.body[0].vacancies], ['SOLD_OUT', false, 0]);
  octoError(await reserve({ productId: w.small, availabilityId: '2026-12-04T11:00', unitItems: units(1) }), 'UNPROCESSABLE_ENTITY');
});

test('Extend Reservation; Booking Confirmation (unit items update); invalid uuid and unit', async () => {
  const r = (await reserve()).body;
  w.t.clock.advance(60_000);
  const ext = await w.call('POST', `/bookings/${r.uuid}/extend`, { expirationMinutes: 31 });
  assert.equal(ext.status, 200, JSON.stringify(ext.body));
  booking(ext.body, 'extended');
  assert.ok(ext.body.utcExpiresAt > r.utcExpiresAt);
  octoError(await w.call('POST', '/bookings/invalidUUID/extend', { expirationMinutes: 31 }), 'INVALID_BOOKING_UUID', ['uuid', 'invalidUUID']);

  octoError(await w.call('POST', `/bookings/${r.uuid}/confirm`, { contact, unitItems: [{ unitId: 'invalidUnitId' }] }), 'INVALID_UNIT_ID');
  octoError(await w.call('POST', '/bookings/invalidUUID/confirm', { contact }), 'INVALID_BOOKING_UUID');
  const c = await w.call('POST', `/bookings/${r.uuid}/confirm`, { contact, resellerReference: 'RES-1', unitItems: units(3) });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  booking(c.body, 'confirmed');
  assert.equal(c.body.status, 'CONFIRMED');
  assert.equal(c.body.resellerReference, 'RES-1');
  assert.equal(c.body.utcExpiresAt, null);
  assert.ok(c.body.utcConfirmedAt);
  assert.equal(c.body.unitItems.length, 3);
  assert.deepEqual([c.body.contact.firstName, c.body.contact.lastName, c.body.contact.fullName, c.body.contact.emailAddress, c.body.contact.notes], ['Erika', 'Mustermann', 'Erika Mustermann', 'erika@example.com', 'window seat']);
  for (const u of c.body.unitItems) assert.ok(u.ticket.deliveryOptions.some((d: any) => d.deliveryFormat === 'QRCODE'));
  assert.ok(c.body.voucher.deliveryOptions.some((d: any) => d.deliveryFormat === 'PDF_URL' && d.deliveryValue.includes('/api/v4/orders/')));
  // The same order record the go~mus API (and so the console, reports and webhooks) shows.
  const order = await w.t.request({ method: 'GET', url: `/api/v4/orders/${c.body.supplierReference}`, token: w.reseller });
  assert.equal(order.statusCode, 200, order.body);
  assert.equal(order.json().order.status, 'finalized');
  const staff = await w.t.request({ method: 'GET', url: `/api/v4/orders/${c.body.supplierReference}`, token: w.user });
  assert.equal(staff.statusCode, 200);
});

test('Booking Update: date, unit items, contact; before and after confirm', async () => {
  const r = (await reserve()).body;
  const moved = await w.call('PATCH', `/bookings/${r.uuid}`, { availabilityId: '2026-12-05T12:00' });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  booking(moved.body, 'moved');
  assert.equal(moved.body.availabilityId, '2026-12-05T12:00');
  assert.equal(moved.body.status, 'ON_HOLD');
  const more = await w.call('PATCH', `/bookings/${r.uuid}`, { unitItems: units(3) });
  assert.equal(more.body.unitItems.length, 3);
  const who = await w.call('PATCH', `/bookings/${r.uuid}`, { contact, notes: 'changed' });
  assert.equal(who.body.contact.emailAddress, 'erika@example.com');
  assert.equal(who.body.notes, 'changed');
  const c = await w.call('POST', `/bookings/${r.uuid}/confirm`, { contact });
  assert.equal(c.body.unitItems.length, 3);
  const product = await w.call('PATCH', `/bookings/${r.uuid}`, { productId: w.day, availabilityId: '2026-12-05', unitItems: [{ unitId: 'child' }] });
  assert.equal(product.status, 200, JSON.stringify(product.body));
  booking(product.body, 'other product');
  assert.deepEqual([product.body.productId, product.body.status, product.body.unitItems.length], [w.day, 'CONFIRMED', 1]);
  octoError(await w.call('PATCH', '/bookings/invalidUUID', { notes: 'x' }), 'INVALID_BOOKING_UUID');
});

test('Booking Cancellation (reservation and booking), Get Booking, List Bookings', async () => {
  const hold = (await reserve({ resellerReference: 'LIST-1' })).body;
  const cancelled = await w.call('POST', `/bookings/${hold.uuid}/cancel`, { reason: 'changed plans' });
  booking(cancelled.body, 'cancelled hold');
  assert.deepEqual([cancelled.body.status, cancelled.body.cancellation.reason, cancelled.body.cancellation.refund], ['CANCELLED', 'changed plans', 'NONE']);
  const sold = (await reserve({ resellerReference: 'LIST-1' })).body;
  await w.call('POST', `/bookings/${sold.uuid}/confirm`, { contact });
  const got = await w.call('GET', `/bookings/${sold.uuid}`);
  booking(got.body, 'got');
  assert.equal(got.body.status, 'CONFIRMED');
  booking((await w.call('GET', `/bookings/${hold.uuid}`)).body, 'got cancelled');
  const rich = await w.call('GET', `/bookings/${sold.uuid}`, undefined, { headers: { 'octo-capabilities': 'octo/pricing, octo/content', 'accept-language': 'en' } });
  valid(octo.zBooking.and(octo.zBookingPricing), rich.body, 'booking with pricing and content');
  valid(octo.zProduct.and(octo.zProductContent).and(octo.zProductPricing), rich.body.product, 'embedded product with content');
  assert.equal(rich.body.product.title, 'Admission regular');
  const del = await w.call('DELETE', `/bookings/${sold.uuid}`, { reason: 'ill' });
  assert.deepEqual([del.body.status, del.body.cancellation.refund], ['CANCELLED', 'FULL']);
  octoError(await w.call('POST', '/bookings/invalidUUID/cancel', {}), 'INVALID_BOOKING_UUID');
  octoError(await w.call('GET', '/bookings/invalidUUID'), 'INVALID_BOOKING_UUID');

  const byRef = await w.call('GET', '/bookings?resellerReference=LIST-1');
  assert.equal(byRef.body.length, 2);
  for (const b of byRef.body) assert.equal(booking(b, 'listed').resellerReference, 'LIST-1');
  const bySupplier = await w.call('GET', `/bookings?supplierReference=${got.body.supplierReference}`);
  assert.deepEqual(bySupplier.body.map((b: any) => b.uuid), [sold.uuid]);
  const byDate = await w.call('GET', '/bookings?localDate=2026-12-04');
  assert.ok(byDate.body.length >= 2);
  octoError(await w.call('GET', '/bookings?'), 'BAD_REQUEST');
});

test("another reseller's booking is the OCTO error, with nothing leaked", async () => {
  const mine = (await reserve({ resellerReference: 'SECRET' })).body;
  for (const [method, url, body] of [['GET', `/bookings/${mine.uuid}`], ['POST', `/bookings/${mine.uuid}/confirm`, { contact }], ['POST', `/bookings/${mine.uuid}/cancel`, {}], ['PATCH', `/bookings/${mine.uuid}`, { notes: 'x' }], ['POST', `/bookings/${mine.uuid}/extend`, {}]] as const) {
    const res = await w.call(method, url, body, { token: w.other });
    octoError(res, 'INVALID_BOOKING_UUID', ['uuid', mine.uuid]);
    assert.doesNotMatch(JSON.stringify(res.body), /SECRET|Test note/);
  }
  assert.deepEqual((await w.call('GET', '/bookings?resellerReference=SECRET', undefined, { token: w.other })).body, []);
  assert.equal((await w.call('GET', `/bookings/${mine.uuid}`)).body.status, 'ON_HOLD');
});

test('confirm after the hold expired; cancel after the cutoff; test mode stays out of reports', async () => {
  const r = (await reserve({ expirationMinutes: 5 })).body;
  w.t.clock.set(new Date(w.t.clock.now().getTime() + 6 * 60_000));
  octoError(await w.call('POST', `/bookings/${r.uuid}/confirm`, { contact }), 'INVALID_BOOKING_UUID', ['uuid', r.uuid]);
  assert.equal((await w.call('GET', `/bookings/${r.uuid}`)).body.status, 'EXPIRED');

  // Today 16:00 Berlin starts within the 24-hour cutoff of the clock (2026-12-01 ~08:10 UTC).
  const late = (await reserve({ availabilityId: '2026-12-01T16:00' })).body;
  const c = await w.call('POST', `/bookings/${late.uuid}/confirm`, { contact });
  assert.equal(c.body.cancellable, false);
  octoError(await w.call('POST', `/bookings/${late.uuid}/cancel`, { force: true }), 'UNPROCESSABLE_ENTITY');
  assert.equal((await w.call('GET', `/bookings/${late.uuid}`)).body.status, 'CONFIRMED');

  const staff = staffCtx(w.t, []);
  const before = await salesReport(staff, { from: '2026-12-01', to: '2026-12-01', by: 'day' });
  const test = (await reserve({}, { headers: { 'octo-env': 'test' } })).body;
  assert.equal(test.testMode, true);
  await w.call('POST', `/bookings/${test.uuid}/confirm`, { contact });
  const afterTest = await salesReport(staff, { from: '2026-12-01', to: '2026-12-01', by: 'day' });
  assert.deepEqual(afterTest.total, before.total);
  const live = (await reserve()).body;
  await w.call('POST', `/bookings/${live.uuid}/confirm`, { contact });
  const afterLive = await salesReport(staff, { from: '2026-12-01', to: '2026-12-01', by: 'day' });
  assert.notDeepEqual(afterLive.total, before.total);
  // By channel the platform's bookings are named as such, in German and English.
  const byChannel = await salesReport(staff, { from: '2026-12-01', to: '2026-12-01', by: 'channel', locale: 'en' });
  assert.ok(byChannel.rows.length > 0 && byChannel.rows.every((r) => r.label.startsWith('OCTO platform: ')), JSON.stringify(byChannel.rows.map((r) => r.label)));
  assert.match((await salesReport(staff, { from: '2026-12-01', to: '2026-12-01', by: 'channel', locale: 'de' })).rows[0]!.label, /^OCTO-Plattform: /);
});

test('Availability Check Status: LIMITED once less than half of a slot is left, SOLD_OUT at none', async () => {
  const at = '2026-12-06T10:00';
  for (const n of [10, 10, 10]) assert.equal((await reserve({ availabilityId: at, unitItems: units(n) })).status, 200);
  const status = async () => (await w.call('POST', '/availability', { productId: w.slotted, optionId: 'DEFAULT', availabilityIds: [at] })).body[0];
  assert.deepEqual([(await status()).status, (await status()).vacancies], ['AVAILABLE', 30]);
  assert.equal((await reserve({ availabilityId: at, unitItems: units(1) })).status, 200);
  const limited = await status();
  assert.deepEqual([limited.status, limited.vacancies, limited.capacity, limited.available], ['LIMITED', 29, 60, true]);
  const day = await w.call('POST', '/availability/calendar', { productId: w.slotted, optionId: 'DEFAULT', localDateStart: '2026-12-06', localDateEnd: '2026-12-06' });
  assert.deepEqual([day.body[0].status, day.body[0].vacancies], ['AVAILABLE', 15 * 60 - 31]);
});
