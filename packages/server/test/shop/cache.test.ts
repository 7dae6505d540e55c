// The shop with the in-process caches `atrium serve` runs (src/cache): its catalogue records come
// from the JSON API's answer cache and go stale with it (a write through this node at once, a
// change elsewhere with its notice), while places left stay live: the request after the sale of
// the last place shows the day sold out, on the day page and in the month calendar.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { saveShopSettings } from '../../src/db/repositories/shopManage.ts';
import { tickets } from '../../src/db/schema/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { cachedAndPlainApps } from '../helpers/cache-pair.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { Visitor } from './support.ts';

const database = await freshDatabase();
const db = database.db;
const clock = new ManualClock(new Date());
const { cached } = await cachedAndPlainApps(database, clock);
const answers = cached.catalogAnswers!;
const m = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, capacity: 2 });
// One slot a day (10:00), two places in it.
const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], title: { de: 'Morgenführung', en: 'Morning slot' }, firstEntry: 600, lastEntry: 600, maxPersons: 2 });
const day = f.localDate(3);
const slot = zonedInstant(day, 600, 'Europe/Berlin').toISOString();
const { token } = await createToken({ db, clock }, { class: 'user', name: 'staff', museumIds: [], rights: ['*'] });
const visitor = new Visitor({ app: cached } as unknown as TestApp, { lang: 'en' });
const dayCell = (state: string) => new RegExp(`class="day ${state}[^"]*">(<a|<span)[^>]*aria-label="[^"]+">${Number(day.slice(8))}<`);

test('the shop keeps its catalogue reads in the answer cache', async () => {
  assert.ok(answers, 'the cached app offers its answer cache');
  await visitor.get('/shop');
  const hits = answers.hits;
  const home = await visitor.get('/shop');
  assert.match(home.body, /Morning slot/);
  assert.ok(answers.hits > hits, 'the second home page read its listing from the cache');
});

test('selling the last place: the next day page and calendar say sold out', async () => {
  const page = `/shop/tickets/${tk.id}`;
  const before = await visitor.get(`${page}?date=${day}`);
  assert.match(before.body, /name="slot" value="[^"]+T10:00:00/);
  assert.match(before.body, /2 left/);
  assert.match((await visitor.get(`${page}?month=${day.slice(0, 7)}`)).body, dayCell('few'));
  const sale = await cached.inject({
    method: 'POST',
    url: '/api/v4/orders',
    headers: { authorization: `Bearer ${token}` },
    payload: { finalize: true, items: [{ type: 'Ticket', attributes: { id: tk.id, quantity: 2, time: slot } }] },
  });
  assert.equal(sale.statusCode, 201, sale.body);
  const after = await visitor.get(`${page}?date=${day}`);
  assert.doesNotMatch(after.body, /name="slot"/);
  assert.match(after.body, /Nothing left on this day/);
  assert.match(after.body, dayCell('soldout'));
  assert.match((await visitor.get(`${page}?month=${day.slice(0, 7)}`)).body, dayCell('soldout'));
});

test('a catalogue change reaches the next shop page, through this node or another', async () => {
  assert.match((await visitor.get(`/shop/tickets/${tk.id}`)).body, /<h1>Morning slot<\/h1>/);
  const put = await cached.inject({ method: 'PUT', url: `/api/v4/tickets/${tk.id}`, headers: { authorization: `Bearer ${token}` }, payload: { title: { de: 'Frühführung', en: 'Early slot' } } });
  assert.equal(put.statusCode, 200, put.body);
  assert.match((await visitor.get(`/shop/tickets/${tk.id}`)).body, /<h1>Early slot<\/h1>/, 'a write through this node clears at once');
  assert.match((await visitor.get('/shop')).body, /Early slot/);
  // Another node's change: only the database's notice tells this process.
  await db.update(tickets).set({ title: { de: 'Spätführung', en: 'Late slot' } }).where(eq(tickets.id, tk.id));
  let body = '';
  for (let i = 0; i < 100 && !/Late slot/.test(body); i++) {
    await new Promise((r) => setTimeout(r, 20));
    body = (await visitor.get('/shop')).body;
  }
  assert.match(body, /Late slot/, 'the change notice cleared the shop data with the answers');
  assert.match((await visitor.get(`/shop/tickets/${tk.id}`)).body, /<h1>Late slot<\/h1>/);
});

test("the shop's settings are kept with the catalogue and go stale with it", async () => {
  await visitor.get('/shop');
  const misses = answers.misses;
  await visitor.get('/shop');
  assert.equal(answers.misses, misses, 'the second home page read nothing afresh, its settings included');
  // An admin saves new settings on another node: its notice clears this node's copy.
  await saveShopSettings(db, { title: { de: 'Haus am See', en: 'House by the lake' } }, clock.now());
  let body = '';
  for (let i = 0; i < 100 && !/House by the lake/.test(body); i++) {
    await new Promise((r) => setTimeout(r, 20));
    body = (await visitor.get('/shop')).body;
  }
  assert.match(body, /House by the lake/, 'the settings change cleared the kept settings');
});
