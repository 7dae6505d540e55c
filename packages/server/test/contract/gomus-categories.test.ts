// go~mus categories (docs/gomus-compatibility.md): `category` is `{id, name}` or null
// on events, tours and dates; GET /events/categories and /tours/categories list what the caller
// may see; by_category_ids[] / by_categories[] (and by_language_ids[]) filter by them (an unknown id: an empty list, as
// go~mus answers; a non-numeric one: a 422 naming the field). The catalogue file keeps naming
// categories by their text. Also the go~mus calls that came with it: /events/:id/calendar (the
// obsolete form of /calendar?by_event_ids[]=) and /dates/languages.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { importCatalogue } from '../../src/domain/catalog-import/importCatalogue.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ now: '2027-03-01T09:00:00Z' });
after(() => t.close());
const db = t.database.db;
const staff = await t.token({ class: 'user' });

const en = (s: string) => ({ en: s });
const open = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, '09:00-18:00']));
const catalogue = {
  languages: [{ code: 'de', name: 'Deutsch' }, { code: 'en', name: 'English' }],
  museums: [{ key: 'm', title: en('Museum'), time_zone: 'Europe/Berlin', opening_hours: open }],
  events: [
    { key: 'guided', museum: 'm', title: en('Guided'), category: 'Führung', price_cents: 500, dates: [{ key: 'd1', start_at: '2027-03-10T14:00', seats_max: 10, language: 'de' }] },
    { key: 'workshop', museum: 'm', title: en('Workshop'), category: { name: 'Workshop' }, price_cents: 500, dates: [{ key: 'd2', start_at: '2027-03-11T14:00', seats_max: 10, language: 'en' }] },
    { key: 'plain', museum: 'm', title: en('Plain'), price_cents: 500 },
    // Released to resellers only: its category is not shown to the public.
    { key: 'partner', museum: 'm', title: en('Partner'), category: 'Partner only', sales_channels: ['reseller'], price_cents: 500 },
  ],
  tours: [{ key: 'tour', museum: 'm', title: en('Tour'), category: 'Führung', duration: 60, max_persons: 10, price_cents: 5000, languages: ['de'] }],
};
await importCatalogue({ db, clock: t.clock }, { document: catalogue });

const idOf = async (kind: string, key: string) =>
  ((await db.execute(sql`select record_id from catalog_keys where kind = ${kind} and key = ${key}`)).rows[0] as { record_id: number }).record_id;
const get = async (url: string, token?: string) => {
  const res = await t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });
  return { status: res.statusCode, body: res.json() };
};
const ok = async (url: string, token?: string) => {
  const r = await get(url, token);
  assert.equal(r.status, 200, `${url}: ${JSON.stringify(r.body)}`);
  return r.body;
};

const guided = await idOf('event', 'guided');
const workshop = await idOf('event', 'workshop');
const plain = await idOf('event', 'plain');
const tour = await idOf('tour', 'tour');
const cats = (await ok('/events/categories', staff)).categories as Array<{ id: number; name: string }>;
const cat = (name: string) => cats.find((c) => c.name === name)!;
const tourCat = ((await ok('/tours/categories')).categories as Array<{ id: number; name: string }>)[0]!;

describe('category as {id, name}', () => {
  test('events: list and detail', async () => {
    const { events } = await ok('/events');
    const byId = new Map((events as Array<{ id: number; category: unknown }>).map((e) => [e.id, e.category]));
    assert.deepEqual(byId.get(guided), { id: cat('Führung').id, name: 'Führung' });
    assert.deepEqual(byId.get(workshop), { id: cat('Workshop').id, name: 'Workshop' });
    assert.equal(byId.get(plain), null);
    assert.deepEqual((await ok(`/events/${guided}`)).event.category, { id: cat('Führung').id, name: 'Führung' });
    assert.equal((await ok(`/events/${plain}`)).event.category, null);
  });

  test('tours: list and detail; tour categories are apart from event categories', async () => {
    assert.deepEqual(tourCat.name, 'Führung');
    assert.notEqual(tourCat.id, cat('Führung').id);
    assert.deepEqual((await ok('/tours')).tours[0].category, tourCat);
    assert.deepEqual((await ok(`/tours/${tour}`)).tour.category, tourCat);
  });

  test('dates: /dates, /events/:id/dates and one date carry their event\'s category', async () => {
    const { dates } = await ok('/dates?start_at=2027-03-01&end_at=2027-03-31');
    assert.deepEqual(dates.map((d: { event_id: number; category: unknown }) => [d.event_id, d.category]), [
      [guided, { id: cat('Führung').id, name: 'Führung' }],
      [workshop, { id: cat('Workshop').id, name: 'Workshop' }],
    ]);
    const one = (await ok(`/events/${guided}/dates?start_at=2027-03-01&end_at=2027-03-31`)).dates[0];
    assert.deepEqual(one.category, { id: cat('Führung').id, name: 'Führung' });
    assert.deepEqual((await ok(`/events/${guided}/dates/${one.id}`)).date.category, one.category);
  });
});

describe('GET /events/categories, /tours/categories', () => {
  test('the public sees the categories of what it can see; users see all', async () => {
    assert.deepEqual((await ok('/events/categories')).categories.map((c: { name: string }) => c.name), ['Führung', 'Workshop']);
    assert.deepEqual(cats.map((c) => c.name), ['Führung', 'Workshop', 'Partner only']);
    const reseller = await t.token({ class: 'reseller' });
    assert.deepEqual((await ok('/events/categories', reseller)).categories.map((c: { name: string }) => c.name), ['Führung', 'Workshop', 'Partner only']);
    assert.deepEqual(await ok('/tours/categories'), { categories: [tourCat] });
  });
});

describe('filters by category', () => {
  const ids = (list: Array<{ id: number }>) => list.map((x) => x.id);
  test('by_category_ids[] and by_categories[] (names) on /events, /tours, /dates, /calendar', async () => {
    assert.deepEqual(ids((await ok(`/events?by_category_ids[]=${cat('Führung').id}`)).events), [guided]);
    assert.deepEqual(ids((await ok(`/events?by_category_ids[]=${cat('Führung').id}&by_category_ids[]=${cat('Workshop').id}`)).events), [guided, workshop]);
    assert.deepEqual(ids((await ok('/events?by_categories[]=Workshop')).events), [workshop]);
    assert.deepEqual(ids((await ok(`/tours?by_category_ids[]=${tourCat.id}`)).tours), [tour]);
    assert.deepEqual(ids((await ok('/tours?by_categories[]=F%C3%BChrung')).tours), [tour]);
    const dates = (await ok(`/dates?start_at=2027-03-01&end_at=2027-03-31&by_category_ids[]=${cat('Workshop').id}`)).dates;
    assert.deepEqual(dates.map((d: { event_id: number }) => d.event_id), [workshop]);
    const cal = (await ok(`/calendar?start_at=2027-03-10&end_at=2027-03-11&by_category_ids[]=${cat('Workshop').id}`)).data;
    assert.deepEqual(cal, { '2027-03-10': false, '2027-03-11': true });
  });

  test('an id naming no category (or one of the other kind) lists nothing, as go~mus', async () => {
    const none = await ok('/events?by_category_ids[]=999999');
    assert.deepEqual([none.events, none.meta.total_count], [[], 0]);
    assert.deepEqual((await ok(`/tours?by_category_ids[]=${cat('Führung').id}`)).tours, []);
    assert.deepEqual((await ok('/events?by_categories[]=Nope')).events, []);
  });

  test('by_language_ids[] on /events, /tours, /dates, /events/:id/dates, /calendar', async () => {
    const langs = (await ok('/dates/languages?start_at=2027-03-01&end_at=2027-03-31')).languages as Array<{ id: number; name: string }>;
    const de = langs.find((l) => l.name === 'Deutsch')!.id;
    const english = langs.find((l) => l.name === 'English')!.id;
    assert.deepEqual(ids((await ok(`/events?by_language_ids[]=${english}`)).events), [workshop]);
    assert.deepEqual(ids((await ok(`/tours?by_language_ids[]=${de}`)).tours), [tour]);
    assert.deepEqual((await ok(`/tours?by_language_ids[]=${english}`)).tours, []);
    const range = 'start_at=2027-03-01&end_at=2027-03-31';
    assert.deepEqual((await ok(`/dates?${range}&by_language_ids[]=${de}`)).dates.map((d: { event_id: number }) => d.event_id), [guided]);
    assert.deepEqual((await ok(`/events/${guided}/dates?${range}&by_language_ids[]=${english}`)).dates, []);
    assert.equal((await ok(`/events/${guided}/dates?${range}&by_language_ids[]=${de}`)).dates.length, 1);
    assert.deepEqual((await ok(`/calendar?start_at=2027-03-10&end_at=2027-03-11&by_language_ids[]=${english}`)).data, { '2027-03-10': false, '2027-03-11': true });
    assert.deepEqual((await ok('/events?by_language_ids[]=999999')).events, []);
  });

  test('a non-numeric id is a 422 naming the field', async () => {
    for (const [url, field] of [['/events?by_category_ids[]=abc', 'by_category_ids'], ['/tours?by_category_ids[]=0', 'by_category_ids'], ['/dates?by_language_ids[]=x', 'by_language_ids']]) {
      const r = await get(url!);
      assert.equal(r.status, 422, url);
      assert.match(JSON.stringify(r.body), new RegExp(field!), url);
    }
  });
});

describe('writes and the catalogue file name categories by text', () => {
  test('staff writes: a name (created when new), {id}, null; an id of the other kind is a 422', async () => {
    const write = (method: 'POST' | 'PUT', url: string, payload: object) => t.request({ method, url: `/api/v4${url}`, token: staff, payload });
    const created = await write('POST', '/events', { event: { museum_id: (await ok(`/events/${guided}`)).event.museum_id, title: 'Neu', category: 'Vortrag' } });
    assert.equal(created.statusCode, 201, created.body);
    const e = created.json().event;
    assert.equal(e.category.name, 'Vortrag');
    const byId = await write('PUT', `/events/${e.id}`, { event: { category: { id: cat('Workshop').id, name: 'ignored' } } });
    assert.deepEqual(byId.json().event.category, { id: cat('Workshop').id, name: 'Workshop' });
    const wrongKind = await write('PUT', `/events/${e.id}`, { event: { category: { id: tourCat.id } } });
    assert.equal(wrongKind.statusCode, 422, wrongKind.body);
    assert.match(wrongKind.body, /not a known event category/);
    assert.deepEqual((await ok(`/events/${e.id}`, staff)).event.category.id, cat('Workshop').id, 'nothing changed by the refused write');
    const cleared = await write('PUT', `/events/${e.id}`, { event: { category: null } });
    assert.equal(cleared.json().event.category, null);
    assert.equal((await write('PUT', `/events/${e.id}`, { event: { category: '' } })).json().event.category, null, 'an empty name is none');
    for (const bad of [{ name: '' }, {}, ['Vortrag']]) {
      const r = await write('PUT', `/events/${e.id}`, { event: { category: bad } });
      assert.equal(r.statusCode, 422, `${JSON.stringify(bad)}: ${r.body}`);
      assert.match(r.body, /category/);
    }
    const tourByName = await write('PUT', `/tours/${tour}`, { tour: { category: 'Führung' } });
    assert.deepEqual(tourByName.json().tour.category, tourCat);
  });

  test('a re-import with another name points the event at that category, kept or created', async () => {
    const next = structuredClone(catalogue);
    next.events[0]!.category = 'Workshop';
    next.events[1]!.category = 'Kurs';
    await importCatalogue({ db, clock: t.clock }, { document: next });
    assert.deepEqual((await ok(`/events/${guided}`)).event.category, { id: cat('Workshop').id, name: 'Workshop' });
    const kurs = (await ok(`/events/${workshop}`)).event.category;
    assert.equal(kurs.name, 'Kurs');
    assert.ok(!cats.some((c) => c.id === kurs.id));
    await importCatalogue({ db, clock: t.clock }, { document: catalogue });
  });
});

describe('go~mus calls that came with categories', () => {
  test('/events/:id/calendar answers as /calendar?by_event_ids[]=:id; an unknown event is a 404', async () => {
    const range = 'start_at=2027-03-09&end_at=2027-03-12';
    for (const depth of ['any', 'all']) {
      const own = await ok(`/events/${guided}/calendar?${range}&depth=${depth}`);
      assert.deepEqual(own, await ok(`/calendar?${range}&depth=${depth}&by_event_ids[]=${guided}`));
    }
    assert.equal((await ok(`/events/${guided}/calendar?${range}`)).data['2027-03-10'], true);
    assert.equal((await get(`/events/999999/calendar?${range}`)).status, 404);
    assert.equal((await get(`/events/${guided}/calendar?start_at=2027-03-01&end_at=2028-03-01`)).status, 422); // 367 days
  });

  test('/dates/languages: the languages of the dates /dates lists with the same filters', async () => {
    assert.deepEqual((await ok('/dates/languages?start_at=2027-03-01&end_at=2027-03-31')).languages.map((l: { name: string }) => l.name), ['Deutsch', 'English']);
    assert.deepEqual((await ok(`/dates/languages?start_at=2027-03-01&end_at=2027-03-31&by_event_ids[]=${workshop}`)).languages.map((l: { name: string }) => l.name), ['English']);
    assert.deepEqual((await ok(`/dates/languages?start_at=2027-03-01&end_at=2027-03-31&by_categories[]=F%C3%BChrung`)).languages.map((l: { name: string }) => l.name), ['Deutsch']);
    assert.deepEqual(await ok('/dates/languages?start_at=2027-04-01&end_at=2027-04-30'), { languages: [] });
    assert.equal((await get('/dates/languages?start_at=2027-03-31&end_at=2027-03-01')).status, 422);
  });
});
