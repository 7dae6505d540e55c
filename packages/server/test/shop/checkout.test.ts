// The core path without JavaScript: two time-slot tickets and a tour in the cart (the tickets
// held), details and consent, one pending order priced by the domain, the demo payment, and the
// confirmation with documents, .ics and the manage link. Then the ways it must not go wrong:
// a replayed or doubled checkout, an expired cart, a slot sold out meanwhile. Promo codes, gift
// cards and vouchers at checkout: checkout-codes.test.ts.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { manageTokenCount } from '../../src/db/repositories/shopManage.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';
import { mailDir, mailStem } from '../../src/notify/mail/files.ts';
import { sendMail, MAX_WAITS } from '../../src/notify/mail/sendMail.ts';
import { addTickets, checkout, payWithDemo, redirectOf, shopWorldWithMailFiles, Visitor } from './support.ts';

// Mails are written as .eml files here (no SMTP server in these tests).
const world = await shopWorldWithMailFiles();
after(() => world.close());
const { w, dataDir } = world;

const orders = async () => Number((await w.t.database.db.execute<{ n: string }>(sql`select count(*) as n from orders where source = 'shop'`)).rows[0]!.n);

test('buy two time-slot tickets and a tour with the demo provider', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  assert.equal(redirectOf(await addTickets(v, w, { regular: 1, reduced: 1 })), '/shop/cart');
  const tour = await v.post('/shop/cart/tours', { tour: w.tourId, start: w.slot(11 * 60), language: w.langs[1], quantity: 3 });
  assert.equal(redirectOf(tour), '/shop/cart');
  const cart = await v.get('/shop/cart');
  assert.equal(cart.statusCode, 200);
  assert.match(cart.body, /Your places are reserved for <time id="countdown"[^>]*data-seconds="900"/);
  assert.match(cart.body, /Timed regular[\s\S]*Timed reduced[\s\S]*Group tour[\s\S]*English/);
  assert.match(cart.body, /Keep them 15 minutes longer/);
  // The holds are real: the API sees 2 places fewer in that slot.
  const left = await w.t.app.inject({ method: 'GET', url: `/api/v4/tickets/${w.regular}/capacity?date=${w.day}` });
  assert.equal(Object.values(left.json().data)[0], 38);

  const form = await v.get('/shop/checkout');
  assert.match(form.body, /name="consent"/);
  const placed = redirectOf(await checkout(v));
  assert.match(placed, /^\/shop\/orders\/[A-Za-z0-9_-]{22}$/);
  const summary = await v.get(placed);
  assert.match(summary.body, /Summary and payment/);
  // 14 + 9 € at 7 % VAT included and the tour's 90 € at 19 %: net, VAT per rate and gross.
  assert.match(summary.body, /Net<\/th><td class="num">€97.12</);
  assert.match(summary.body, /VAT 7 %<\/th><td class="num">€1.51</);
  assert.match(summary.body, /VAT 19 %<\/th><td class="num">€14.37</);
  assert.match(summary.body, /Total<\/th><td class="num">€113.00</);
  assert.match(summary.body, /name="provider" value="demo"/);

  const done = await payWithDemo(v, w.t, placed);
  assert.match(done.body, /Thank you for your order/);
  // The confirmation links to the booking's manage page, which opens with that link alone.
  const manage = /href="(\/shop\/manage\/mb_[A-Za-z0-9_-]{43})"/.exec(done.body)?.[1];
  assert.ok(manage, 'the confirmation links to a manage page');
  const managed = await v.get(manage);
  assert.equal(managed.statusCode, 200);
  // The link was issued once, when the order was finalized: another view shows the same one.
  const orderId = (await w.t.database.db.execute<{ id: number }>(sql`select id from orders where token = ${placed.split('/').pop()}`)).rows[0]!.id;
  assert.equal(await manageTokenCount(w.t.database.db, orderId), 1);
  const again = await v.get(placed);
  assert.equal(/href="(\/shop\/manage\/mb_[A-Za-z0-9_-]{43})"/.exec(again.body)?.[1], manage);
  assert.equal(await manageTokenCount(w.t.database.db, orderId), 1, 'a second confirmation view issues no other link');
  // The confirmation mail carries the same link, and it opens the manage page.
  const ctx = systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config });
  while ((await dispatchEvents(ctx)) > 0);
  const mail = (await w.t.database.db.execute<{ id: number }>(sql`
    select m.id from mail_messages m join outbox_events e on e.id = m.event_id where m.kind = 'order_confirmation' and e.subject_id = ${orderId}`)).rows[0]!;
  // Without waiting for the PDFs: the link is what this checks.
  assert.equal(await sendMail(ctx, { mailId: mail.id, waits: MAX_WAITS }), 'sent');
  const parsed = await simpleParser(await readFile(path.join(mailDir(dataDir), `${mailStem(mail.id, 'order_confirmation')}.eml`)));
  const mailed = /https?:\/\/[^\s]+(\/shop\/manage\/mb_[A-Za-z0-9_-]{43})/.exec(parsed.text ?? '')?.[1];
  assert.equal(mailed, manage, 'the mail carries the order\'s one link');
  assert.match(parsed.html || '', new RegExp(`<a href="[^"]+${manage}">`));
  assert.equal((await v.get(mailed!)).statusCode, 200);
  assert.equal(await manageTokenCount(w.t.database.db, orderId), 1);
  assert.match(done.body, /calendar\.ics/);
  const ics = await v.get(`${placed}/calendar.ics`);
  assert.equal(ics.statusCode, 200);
  assert.match(ics.headers['content-type'] as string, /text\/calendar/);
  assert.equal((ics.body.match(/BEGIN:VEVENT/g) ?? []).length, 3);
  const row = (await w.t.database.db.execute<{ status: string; total_price_cents: number; source: string }>(sql`select status, total_price_cents, source from orders where token = ${placed.split('/').pop()}`)).rows[0]!;
  assert.deepEqual(row, { status: 'finalized', total_price_cents: 11300, source: 'shop' });
  // A new visit starts a new cart.
  assert.match((await v.get('/shop/cart')).body, /Your cart is empty/);
});

test('tampered fields: client prices are ignored, quantities outside min/max are refused in words', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  const bad = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(630), [`q_${w.regular}`]: 9, [`q_${w.reduced}`]: 0 });
  assert.equal(bad.statusCode, 422);
  assert.match(bad.body, /Timed regular: the quantity must be between 1 and 8/);
  const neg = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(630), [`q_${w.regular}`]: '-1' });
  assert.equal(neg.statusCode, 422);
  assert.match(neg.body, /whole number/);
  const none = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(630), [`q_${w.regular}`]: 0 });
  assert.match(none.body, /at least one ticket/);
  // A price field and a category the page never offered (the day ticket) change nothing.
  const ok = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(630), [`q_${w.regular}`]: 2, price_cents: 1, total: 1, [`q_${w.dayTicket}`]: 5 });
  assert.equal(redirectOf(ok), '/shop/cart');
  const tourBad = await v.post('/shop/cart/tours', { tour: w.tourId, start: w.slot(600), language: w.langs[0], quantity: 21 });
  assert.equal(tourBad.statusCode, 422);
  const placed = redirectOf(await checkout(v));
  const total = (await w.t.database.db.execute<{ t: number }>(sql`select total_price_cents as t from orders where token = ${placed.split('/').pop()}`)).rows[0]!.t;
  assert.equal(total, 2800);
});

test('a replayed checkout and two tabs checking out one cart make one order', async () => {
  const v = new Visitor(w.t);
  await addTickets(v, w, { regular: 1, min: 660 });
  const before = await orders();
  const tab2 = new Visitor(w.t);
  tab2.cookies = { ...v.cookies };
  tab2.csrf = v.csrf;
  const [a, b] = await Promise.all([checkout(v), checkout(tab2)]);
  assert.equal(redirectOf(a), redirectOf(b));
  assert.equal(await orders(), before + 1);
  // The back button sends the form again: the same order, never a second.
  const again = await checkout(tab2);
  assert.equal(redirectOf(again), redirectOf(a));
  assert.equal(await orders(), before + 1);
});

test('an expired cart says so and frees its places; checkout then refuses the lapsed hold', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  await addTickets(v, w, { regular: 2, min: 690 });
  const stale = { ...v.cookies };
  w.t.clock.advanceMinutes(16);
  try {
    const left = await w.t.app.inject({ method: 'GET', url: `/api/v4/tickets/${w.regular}/capacity?date=${w.day}` });
    assert.equal(left.json().data[Object.keys(left.json().data).find((k) => k.includes('T11:30'))!], 40, 'the places are free again');
    const cart = await v.get('/shop/cart');
    assert.match(cart.body, /Your reservation has expired and the places were released/);
    const other = new Visitor(w.t, { lang: 'en' });
    other.cookies = stale;
    other.csrf = v.csrf;
    const res = await checkout(other);
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /Your reservation has expired/);
  } finally {
    w.t.clock.advanceMinutes(-16);
  }
});

test('one extension, then no more', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  await addTickets(v, w, { regular: 1, min: 720 });
  w.t.clock.advanceMinutes(10);
  try {
    assert.equal(redirectOf(await v.post('/shop/cart/extend', {})), '/shop/cart');
    const cart = await v.get('/shop/cart');
    assert.match(cart.body, /data-seconds="900"/);
    assert.doesNotMatch(cart.body, /Keep them 15 minutes longer/);
  } finally {
    w.t.clock.advanceMinutes(-10);
  }
});

test('a tour start sold out between cart and checkout is refused in words, nothing is held', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  await v.post('/shop/cart/tours', { tour: w.tourId, start: w.slot(13 * 60), language: w.langs[0], quantity: 2 });
  const token = await w.t.token({ class: 'user' });
  const sold = await w.t.request({ method: 'POST', url: '/api/v4/orders', token, payload: { items: [{ type: 'Tour', attributes: { id: w.tourId, quantity: 5, start_time: w.slot(13 * 60), language_id: w.langs[0] } }], finalize: true } });
  assert.equal(sold.statusCode, 201, sold.body);
  const before = await orders();
  const res = await checkout(v);
  assert.equal(res.statusCode, 422);
  assert.match(res.body, /Sold out/);
  assert.equal(await orders(), before);
});

test('names of 500 characters with RTL and emoji: refused in words; a long one is kept and escaped', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  await addTickets(v, w, { regular: 1, min: 750 });
  const long = ('שלום 👩‍🎨 مرحبا ' + '<b>x</b>').repeat(40).slice(0, 500);
  const before = await orders();
  const res = await checkout(v, { name: long });
  assert.equal(res.statusCode, 422);
  assert.match(res.body, /name is too long/);
  assert.equal(await orders(), before);
  const missing = await v.post('/shop/checkout', { name: '<script>alert(1)</script>', surname: '', email: 'x@example.org' });
  assert.equal(missing.statusCode, 422);
  assert.match(missing.body, /Please enter your surname[\s\S]*Please accept the terms/);
  assert.match(missing.body, /value="&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
  assert.doesNotMatch(missing.body, /<script>alert/);
  const ok = await checkout(v, { name: long.slice(0, 200), surname: 'עברית 😀' });
  assert.match(redirectOf(ok), /^\/shop\/orders\//);
});

test('a form without the visitor token is refused (CSRF)', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  await v.get('/shop');
  const res = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(600), [`q_${w.regular}`]: 1 }, { csrf: 'x'.repeat(43) });
  assert.equal(res.statusCode, 403);
  assert.match(res.body, /The form was too old/);
});
