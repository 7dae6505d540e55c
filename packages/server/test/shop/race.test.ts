// The last places, wanted by many visitors at once: through the shop, exactly what is there is
// sold, never more. Each scenario runs twice: against the real locking, and as a control run
// with the capacity locks switched off (ctx.testing), which must oversell, so that a green
// result means the locks did the work and not the timing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { checkout, redirectOf, shopWorld, Visitor, type ShopWorld } from './support.ts';
import { raceUntilFault } from '../helpers/control.ts';

const VISITORS = 10;
let locked: ShopWorld;
let control: ShopWorld;

before(async () => {
  [locked, control] = await Promise.all([shopWorld({ capacity: 4 }), shopWorld({ capacity: 4, testing: { disableCapacityLocks: true } })]);
});
after(async () => {
  await Promise.all([locked.t.close(), control.t.close()]);
});

async function count(w: ShopWorld, q: ReturnType<typeof sql>) {
  return Number((await w.t.database.db.execute<{ n: string }>(q)).rows[0]!.n);
}

/** Every visitor puts the same tour start in the cart (tours are not held), then all check out at once. */
async function tourRace(w: ShopWorld, hour = 14): Promise<number> {
  const start = w.slot(hour * 60);
  const vs = Array.from({ length: VISITORS }, (_, i) => new Visitor(w.t, { lang: 'en', ip: `10.0.0.${i + 1}` }));
  for (const v of vs) assert.equal(redirectOf(await v.post('/shop/cart/tours', { tour: w.tourId, start, language: w.langs[0], quantity: 2 })), '/shop/cart');
  const answers = await Promise.all(vs.map((v) => checkout(v)));
  for (const a of answers) assert.ok(a.statusCode === 303 || /Sold out/.test(a.body), `${a.statusCode} ${a.body.slice(0, 200)}`);
  return count(w, sql`select count(*) as n from order_items i join orders o on o.id = i.order_id where o.source = 'shop' and i.tour_id = ${w.tourId} and i.start_at = ${start}::timestamptz`);
}

/** Every visitor wants 2 of the slot's 4 places at once: the holds decide. */
async function holdRace(w: ShopWorld): Promise<number> {
  const vs = Array.from({ length: VISITORS }, (_, i) => new Visitor(w.t, { lang: 'en', ip: `10.0.1.${i + 1}` }));
  await Promise.all(vs.map((v) => v.get('/shop')));
  const answers = await Promise.all(vs.map((v) => v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(600), [`q_${w.regular}`]: 2 })));
  for (const a of answers) assert.ok(a.statusCode === 303 || /Sold out/.test(a.body), `${a.statusCode} ${a.body.slice(0, 200)}`);
  return count(w, sql`select coalesce(sum(quantity), 0) as n from reservations where ticket_id = ${w.regular} and released_at is null`);
}

test('two and more checkouts for one tour start: one booking, never two', async () => {
  assert.equal(await tourRace(locked), 1);
});

test('control run: without the capacity locks the same race books the start twice or more', async () => {
  // Up to four races, each for a start of its own (test/helpers/control.ts).
  const booked = await raceUntilFault([14, 13, 12, 11], (hour) => tourRace(control, hour), (n) => n > 1);
  assert.ok(booked.at(-1)! > 1, `the control run must oversell, or this test proves nothing (bookings per race: ${booked.join(', ')})`);
});

test('ten visitors holding the last four places: four held, nothing oversold', async () => {
  assert.equal(await holdRace(locked), 4);
});

test('control run: without the capacity locks the holds exceed the capacity', async () => {
  assert.ok((await holdRace(control)) > 4, 'the control run must oversell, or this test proves nothing');
});
