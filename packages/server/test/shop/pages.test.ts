// Every shop page answers in both languages under the shop's strict CSP, from the same verbs the
// JSON API uses: the home page lists what the shop channel offers (never a back-office ticket),
// offer pages show the month calendar and the day's slots, event dates or tour start times.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import * as f from '../helpers/factories.ts';
import { SHOP_CSP } from '../../src/http/shop/security.ts';
import { setPicture } from '../../src/db/repositories/media.ts';
import { pictureJson } from '../../src/domain/media/picture.ts';
import { addTickets, shopWorld, Visitor } from './support.ts';

const w = await shopWorld();
after(() => w.t.close());

test('home lists tickets, events and tours of the shop channel, in German by default', async () => {
  await f.ticket(w.t.database.db, { museumId: w.museumId, title: { de: 'Freikarte Kasse', en: 'Desk only' }, salesChannels: [] });
  const v = new Visitor(w.t);
  const res = await v.get('/shop');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-security-policy'], SHOP_CSP);
  assert.doesNotMatch(SHOP_CSP, /unsafe-inline/);
  assert.match(res.body, /<html lang="de">/);
  assert.match(res.body, /Zeitfenster regulär/);
  assert.match(res.body, /Kuratorengespräch/);
  assert.match(res.body, /Gruppenführung/);
  assert.doesNotMatch(res.body, /Freikarte Kasse/);
  assert.doesNotMatch(res.body, /<script>|style=/, 'no inline script or style');
});

test('Accept-Language and the switch choose English; the switch sticks', async () => {
  const v = new Visitor(w.t, { lang: 'en-GB,en;q=0.9' });
  assert.match((await v.get('/shop')).body, /<html lang="en">[\s\S]*Timed regular/);
  const d = new Visitor(w.t);
  assert.match((await d.get('/shop?lang=en')).body, /Timed regular/);
  assert.match((await d.get('/shop')).body, /<html lang="en">/, 'the cookie keeps the choice');
});

test('museum page, and an unknown museum is a friendly 404', async () => {
  const v = new Visitor(w.t);
  const res = await v.get(`/shop/m/${w.museumId}`);
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /Testmuseum/);
  const gone = await v.get('/shop/m/999999');
  assert.equal(gone.statusCode, 404);
  assert.match(gone.body, /gibt es nicht/);
  assert.equal((await v.get('/shop/m/abc')).statusCode, 404);
});

test('ticket page: month calendar, then the day with slots, places left and both price categories', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  const cal = await v.get(`/shop/tickets/${w.regular}?month=${w.day.slice(0, 7)}`);
  assert.equal(cal.statusCode, 200);
  assert.match(cal.body, new RegExp(`href="/shop/tickets/${w.regular}\\?date=${w.day}#slots"`));
  assert.match(cal.body, /class="day available/);
  const day = await v.get(`/shop/tickets/${w.regular}?date=${w.day}`);
  assert.match(day.body, /name="slot" value="[^"]+T10:00:00\+0[12]:00"/);
  assert.match(day.body, /40 left/);
  assert.match(day.body, new RegExp(`name="q_${w.reduced}"`), 'the reduced ticket is a price category of the same grid');
  assert.doesNotMatch(day.body, new RegExp(`name="q_${w.dayTicket}"`), 'a day ticket is not on the slot grid');
});

test('sold-out days show as sold out; a closed day as closed', async () => {
  const db = w.t.database.db;
  const q = await f.quota(db, { museumId: w.museumId, capacity: 5 });
  const tk = await f.ticket(db, { museumId: w.museumId, quotaIds: [q.id], maxPersons: 5 });
  await f.quotaOverride(db, { quotaId: q.id, date: w.day, capacity: 0 });
  const v = new Visitor(w.t, { lang: 'en' });
  const res = await v.get(`/shop/tickets/${tk.id}?date=${w.day}`);
  assert.match(res.body, new RegExp(`class="day (soldout|closed)"><span aria-label="[^"]+: (sold out|closed)">${Number(w.day.slice(8))}<`));
  assert.match(res.body, /Nothing left on this day/);
});

test('event page lists the dates with seats; tour page the start times and languages', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  const ev = await v.get(`/shop/events/${w.eventId}`);
  assert.equal(ev.statusCode, 200);
  assert.match(ev.body, /10 left/);
  assert.match(ev.body, new RegExp(`name="date" value="${w.dateId}"`));
  const tour = await v.get(`/shop/tours/${w.tourId}?date=${w.day}`);
  assert.equal(tour.statusCode, 200);
  assert.match(tour.body, /name="start" value="[^"]+T10:00:00/);
  assert.match(tour.body, /Deutsch[\s\S]*English/);
});

test('assets are served from the shop itself; deep links of unknown offers are 404', async () => {
  const v = new Visitor(w.t);
  const css = await v.get('/shop/assets/shop.css');
  assert.equal(css.statusCode, 200);
  assert.match(css.headers['content-type'] as string, /text\/css/);
  assert.equal((await v.get('/shop/assets/shop.js')).statusCode, 200);
  for (const u of ['/shop/tickets/999999', '/shop/events/999999', '/shop/tours/999999', '/shop/tickets/x']) assert.equal((await v.get(u)).statusCode, 404, u);
});

test('pictures: home, offer page and cart line show the media sizes, alt from the title, lazy; none shows no image', async () => {
  const db = w.t.database.db;
  const at = new Date();
  await setPicture(db, 'ticket', w.regular, pictureJson({ title: 'Die große Halle', description: null, copyrightInfo: null, storageKey: 'ab/cdef01' }), at);
  await setPicture(db, 'event', w.eventId, pictureJson({ title: null, description: null, copyrightInfo: null, storageKey: 'ab/ev0001' }), at);
  const v = new Visitor(w.t);
  const img = /<img class="pic[^"]*" src="\/media\/ab\/cdef01\/preview\.jpg" srcset="\/media\/ab\/cdef01\/teaser\.jpg 320w, \/media\/ab\/cdef01\/preview\.jpg 640w, \/media\/ab\/cdef01\/article\.jpg 1024w" sizes="[^"]+" alt="Die große Halle" loading="lazy" decoding="async">/;
  const home = await v.get('/shop');
  assert.match(home.body, img);
  assert.match(home.body, /<source type="image\/webp" srcset="\/media\/ab\/cdef01\/teaser\.webp 320w, \/media\/ab\/cdef01\/preview\.webp 640w, \/media\/ab\/cdef01\/article\.webp 1024w"/);
  assert.match(home.body, /src="\/media\/ab\/ev0001\/preview\.jpg"[^>]* alt=""/, 'a picture without a title is decorative');
  assert.equal((home.body.match(/<img class="pic/g) ?? []).length, 2, 'records without a picture show none');
  assert.doesNotMatch(home.body, /src=""/);
  assert.match((await v.get(`/shop/tickets/${w.regular}`)).body, /<img class="pic hero"[^>]*alt="Die große Halle"/);
  assert.doesNotMatch((await v.get(`/shop/tickets/${w.dayTicket}`)).body, /<img class="pic/);
  await addTickets(v, w, { regular: 1 });
  const cart = await v.get('/shop/cart');
  assert.match(cart.body, /<img class="pic thumb" src="\/media\/ab\/cdef01\/preview\.jpg"[^>]*sizes="6rem" alt="Die große Halle" loading="lazy"/);
});

test('gift-card balance page: balance and last day only, the code never shown back; tries count per address', async () => {
  const staff = await w.t.token({ class: 'user' });
  const r = await w.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: staff, payload: { gift_card: { amount_cents: 2500, expires_on: '2030-06-30' } } });
  assert.equal(r.statusCode, 201, r.body);
  const code: string = r.json().gift_card.code;
  const v = new Visitor(w.t, { lang: 'en', ip: '10.7.7.7' });
  assert.match((await v.get('/shop')).body, /href="\/shop\/gift-cards\/balance"/);
  assert.equal((await v.get('/shop/gift-cards/balance')).statusCode, 200);
  const ok = await v.post('/shop/gift-cards/balance', { code });
  assert.equal(ok.statusCode, 200);
  assert.match(ok.body, /Balance: €25.00, valid until Sunday, 30 June 2030\./);
  assert.doesNotMatch(ok.body, new RegExp(code.slice(0, 10)));
  const bad = await v.post('/shop/gift-cards/balance', { code: 'AAAA-BBBB-CCCC-DDDD-EEEE' });
  assert.equal(bad.statusCode, 422);
  assert.match(bad.body, /This gift card code is not valid/);
  assert.equal((await w.t.app.limiter.store.peek('lim:gc:10.7.7.7')).current, 2);
});
