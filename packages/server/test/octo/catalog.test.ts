// OCTO supplier, products, calendar and availability, walking the official validator's scenarios
// (supplier, products, calendar, availability and their error cases), every answer checked
// against @octocloud/types' zod schemas, with and without octo/pricing and octo/content.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { octo, octoError, octoWorld, valid } from './helpers.ts';

const w = await octoWorld();
after(() => w.t.close());

test('Get Supplier (and the legacy /suppliers forms), capabilities', async () => {
  const s = await w.call('GET', '/supplier');
  assert.equal(s.status, 200);
  valid(octo.zSupplier, s.body, 'supplier');
  const list = await w.call('GET', '/suppliers');
  assert.equal(list.body.length, 1);
  valid(octo.zSupplier, (await w.call('GET', `/suppliers/${s.body.id}`)).body, 'supplier by id');
  const caps = await w.call('GET', '/capabilities');
  for (const c of caps.body) valid(octo.zCapability, c, 'capability');
  const content = await w.call('GET', '/supplier', undefined, { headers: { 'octo-capabilities': 'octo/content', 'accept-language': 'en' } });
  valid(octo.zSupplier.and(octo.zSupplierContent), content.body, 'supplier with content');
});

test('Get Products, Get Product, Get Product Invalid; pricing and content', async () => {
  const res = await w.call('GET', '/products');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.map((p: any) => p.id), [w.slotted, w.day, w.small]);
  for (const p of res.body) valid(octo.zProduct, p, 'product');
  const [slotted, day] = res.body;
  assert.equal(slotted.availabilityType, 'START_TIME');
  assert.deepEqual(slotted.options[0].availabilityLocalStartTimes.slice(0, 2), ['10:00', '10:30']);
  assert.equal(day.availabilityType, 'OPENING_HOURS');
  // The zod schema wants at least one start time, so a day ticket names its first entry.
  assert.deepEqual(day.options[0].availabilityLocalStartTimes, ['10:00']);
  assert.equal(day.options[0].units[0].type, 'CHILD');
  assert.equal(slotted.options[0].restrictions.maxUnits, 10);

  const one = await w.call('GET', `/products/${w.slotted}`);
  valid(octo.zProduct, one.body, 'product');
  octoError(await w.call('GET', '/products/invalidProductId'), 'INVALID_PRODUCT_ID', ['productId', 'invalidProductId']);

  for (const header of ['octo/pricing', 'pricing', ' octo/pricing , octo/content ', 'content,pricing']) {
    const r = await w.call('GET', `/products/${w.slotted}`, undefined, { headers: { 'octo-capabilities': header } });
    valid(octo.zProduct.and(octo.zProductPricing), r.body, `product (${header})`);
    const unit = r.body.options[0].units[0];
    valid(octo.zUnitPricing ?? octo.zPricingUnit, unit, 'unit pricing');
    assert.equal(unit.pricingFrom[0].retail, 1400);
    assert.equal(unit.pricingFrom[0].net, 1200);
    assert.equal(unit.pricingFrom[0].includedTaxes[0].retail, 92); // 7 % of 14.00 included
    assert.match(String(r.headers['octo-capabilities']), /octo\/pricing/);
  }
  const c = await w.call('GET', `/products/${w.slotted}`, undefined, { headers: { 'octo-capabilities': 'octo/content', 'accept-language': 'en-GB,de;q=0.5' } });
  valid(octo.zProduct.and(octo.zProductContent), c.body, 'product with content');
  valid(octo.zOption.and(octo.zOptionContent), c.body.options[0], 'option with content');
  assert.equal(c.body.title, 'Admission regular');
  assert.equal(c.headers['content-language'], 'en');
  assert.equal(c.headers['available-languages'], 'de, en');
  const de = await w.call('GET', `/products/${w.slotted}`, undefined, { headers: { 'octo-capabilities': 'content', 'accept-language': 'de' } });
  assert.equal(de.body.title, 'Eintritt regulär');
  const none = await w.t.request({ method: 'GET', url: `/octo/products/${w.slotted}`, token: w.reseller });
  assert.equal(none.statusCode, 200);
  assert.equal(none.json().pricingPer, undefined);
  assert.equal(none.headers['octo-capabilities'], '');
});

test('Availability Calendar: both types, a year, closed and sold-out days, errors', async () => {
  for (const productId of [w.slotted, w.day]) {
    const r = await w.call('POST', '/availability/calendar', { productId, optionId: 'DEFAULT', localDateStart: '2026-12-01', localDateEnd: '2026-12-31' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.length, 31);
    for (const d of r.body) valid(octo.zAvailabilityCalendar, d, 'calendar day');
    assert.ok(r.body.filter((d: any) => d.available).length > 1);
  }
  const year = await w.call('POST', '/availability/calendar', { productId: w.day, optionId: 'DEFAULT', localDateStart: '2026-12-01', localDateEnd: '2027-12-01' });
  assert.equal(year.body.length, 366);
  // The test museum is closed on Mondays: listed, not left out.
  const monday = year.body.find((d: any) => d.localDate === '2026-12-07');
  assert.deepEqual([monday.status, monday.available], ['CLOSED', false]);
  octoError(await w.call('POST', '/availability/calendar', { productId: w.day, optionId: 'DEFAULT', localDateStart: '2026-12-01', localDateEnd: '2027-12-02' }), 'BAD_REQUEST');
  octoError(await w.call('POST', '/availability/calendar', { productId: 'invalidProductId', optionId: 'DEFAULT', localDateStart: '2026-12-01', localDateEnd: '2026-12-02' }), 'INVALID_PRODUCT_ID', ['productId', 'invalidProductId']);
  octoError(await w.call('POST', '/availability/calendar', { productId: w.day, optionId: 'invalidOptionId', localDateStart: '2026-12-01', localDateEnd: '2026-12-02' }), 'INVALID_OPTION_ID', ['optionId', 'invalidOptionId']);
  octoError(await w.call('POST', '/availability/calendar', { productId: w.day, optionId: 'DEFAULT', localDateEnd: '2026-12-02' }), 'BAD_REQUEST');
  const priced = await w.call('POST', '/availability/calendar', { productId: w.slotted, optionId: 'DEFAULT', localDateStart: '2026-12-02', localDateEnd: '2026-12-02' }, { headers: { 'octo-capabilities': 'octo/pricing' } });
  valid(octo.zAvailabilityCalendar.and(octo.zAvailabilityCalendarPricing), priced.body[0], 'calendar with pricing');
});

test('Availability Check: interval, date, ids, status, errors', async () => {
  const interval = await w.call('POST', '/availability', { productId: w.slotted, optionId: 'DEFAULT', localDateStart: '2026-12-02', localDateEnd: '2026-12-03' });
  assert.equal(interval.status, 200);
  assert.equal(interval.body.length, 2 * 15);
  for (const a of interval.body) valid(octo.zAvailability, a, 'availability');
  assert.equal(interval.body[0].id, '2026-12-02T10:00');
  assert.equal(interval.body[0].localDateTimeStart, '2026-12-02T10:00:00+01:00');
  assert.equal(interval.body[0].utcCutoffAt, '2026-12-02T09:00:00Z');
  const day = await w.call('POST', '/availability', { productId: w.day, optionId: 'DEFAULT', localDate: '2026-12-02' });
  assert.equal(day.body.length, 1);
  valid(octo.zAvailability, day.body[0], 'day availability');
  assert.equal(day.body[0].allDay, true);
  assert.ok(day.body[0].openingHours.length >= 1);
  const ids = await w.call('POST', '/availability', { productId: w.slotted, optionId: 'DEFAULT', availabilityIds: ['2026-12-03T11:00', '2026-12-02T10:30'] });
  assert.deepEqual(ids.body.map((a: any) => a.id).sort(), ['2026-12-02T10:30', '2026-12-03T11:00']);
  const both = await w.call('POST', '/availability', { productId: w.slotted, optionId: 'DEFAULT', localDate: '2026-12-02', availabilityIds: ['2026-12-02T10:30'] });
  octoError(both, 'BAD_REQUEST');
  octoError(await w.call('POST', '/availability', { productId: w.slotted, optionId: 'DEFAULT' }), 'BAD_REQUEST');
  octoError(await w.call('POST', '/availability', { productId: 'invalidProductId', optionId: 'DEFAULT', localDate: '2026-12-02' }), 'INVALID_PRODUCT_ID');
  octoError(await w.call('POST', '/availability', { productId: w.slotted, optionId: 'invalidOptionId', localDate: '2026-12-02' }), 'INVALID_OPTION_ID');
  const priced = await w.call('POST', '/availability', { productId: w.slotted, optionId: 'DEFAULT', localDate: '2026-12-02' }, { headers: { 'octo-capabilities': 'octo/pricing, octo/content' } });
  valid(octo.zAvailability.and(octo.zAvailabilityPricing).and(octo.zAvailabilityContent), priced.body[0], 'availability with pricing and content');
});

test('Auth: no token, a bad token and another token class answer OCTO errors, never 404 for unknown ids', async () => {
  octoError(await w.call('GET', '/products', undefined, { token: null }), 'UNAUTHORIZED');
  octoError(await w.call('GET', '/products', undefined, { token: 'atr_nope_nope' }), 'UNAUTHORIZED');
  octoError(await w.call('GET', '/products', undefined, { token: w.user }), 'FORBIDDEN');
  octoError(await w.call('GET', '/bookings/invalidUUID'), 'INVALID_BOOKING_UUID', ['uuid', 'invalidUUID']);
});

test('octo/content: a ticket with a picture shows it as the cover, with an absolute URL', async () => {
  const id = Number(w.slotted.replace('ticket-', ''));
  const before = await w.call('GET', `/products/${w.slotted}`, undefined, { headers: { 'octo-capabilities': 'octo/content' } });
  assert.deepEqual(before.body.media, []);
  const picture = { title: 'Hall', description: 'The great hall', copyright_info: '© Museum', teaser: '/media/k1/teaser.jpg', preview: '/media/k1/preview.jpg', article: '/media/k1/article.jpg', detail: '/media/k1/detail.jpg', original: '/media/k1/original.jpg' };
  await w.t.database.pool.query('update tickets set picture = $1 where id = $2', [JSON.stringify(picture), id]);
  const r = await w.call('GET', `/products/${w.slotted}`, undefined, { headers: { 'octo-capabilities': 'octo/content' } });
  valid(octo.zProduct.and(octo.zProductContent), r.body, 'product with a picture');
  assert.equal(r.body.media.length, 1);
  const m = r.body.media[0];
  assert.match(m.src, /^https?:\/\/[^/]+\/media\/k1\/detail\.jpg$/);
  assert.deepEqual([m.type, m.rel, m.title, m.caption, m.copyright], ['image/jpeg', 'COVER', 'Hall', 'The great hall', '© Museum']);
  valid(octo.zOption.and(octo.zOptionContent), r.body.options[0], 'option with a picture');
  assert.equal(r.body.options[0].media.length, 1);
});
