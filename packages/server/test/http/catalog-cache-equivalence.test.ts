// The caches change no answer: three apps on one database answer every catalogue
// list endpoint, for each kind of caller and a spread of filters (q=, pagination, locales, ids
// filters, valid_at, featured), with the same status, the same body byte for byte and the same
// ETag:
// - `cached`: every in-process cache (src/cache, as `atrium serve` runs), on the answer cache's
//   miss and on its hit;
// - `rows`: every cache but the answer cache (ATRIUM_CATALOG_CACHE=rows): lists assembled from
//   per-row JSON fragments (src/cache/rows.ts, domain/catalog/fragments.ts), on the first read
//   and on the next one from kept fragments;
// - `plain`: no cache at all (ATRIUM_CATALOG_CACHE=0), the reference.
// Controls: the cached app really answers the second request from the cache (x-atrium-cache:
// hit), the rows app really reuses fragments, and edits of a ticket's text, its quota links, its
// sales channels, an event's category name, its museum's address and the languages of events and tours reach every app
// alike. Fragments are not cleared by those edits (they are keyed by row version and related
// data), so a fragment that went stale would make the second comparison fail.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { startCaches, type Caches } from '../../src/cache/index.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { cachedAndPlainApps } from '../helpers/cache-pair.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase();
const clock = new ManualClock('2026-03-23T08:00:00Z');
// Closed before the pair's own `after` drops the database (hooks run in the order registered).
let rows: FastifyInstance | undefined;
after(async () => {
  await rows?.close();
});
const { cached, plain, config } = await cachedAndPlainApps(database, clock);
const rowCaches = (await startCaches(database.url, config, { warn: () => {}, info: () => {} }, 'rows')) as Caches;
// Built as `atrium serve` builds it (schemas compiled lazily), so the item serializer the
// fragments use is the one production uses.
rows = await buildApp({ database, config, clock, logger: false, caches: rowCaches, lazySchemas: true });
const rowsApp = rows;

const db = database.db;
const tokens: Record<string, string | undefined> = { anonymous: undefined };
let ids = { museum: 0, other: 0, exhibition: 0, ticket: 0, event: 0, tour: 0, quota: 0 };

before(async () => {
  const m = await f.museum(db, { title: { de: 'Haus am See', en: 'Lake House' } });
  const other = await f.museum(db, { title: { de: 'Zweites Haus', en: 'Second House' } });
  const x = await f.exhibition(db, { museumId: m.id, title: { de: 'Licht', en: 'Light' }, featured: true });
  await f.exhibition(db, { museumId: other.id, title: { de: 'Schatten', en: 'Shadow' } });
  const q = await f.quota(db, { museumId: m.id, kind: 'slot', capacity: 20 });
  tokens.reseller = (await createToken({ db, clock }, { class: 'reseller', name: 'partner' })).token;
  tokens.user = (await createToken({ db, clock }, { class: 'user', name: 'staff', museumIds: [], rights: ['*'] })).token;
  tokens.public = (await createToken({ db, clock }, { class: 'public', name: 'shop' })).token;
  tokens.scoped = (await createToken({ db, clock }, { class: 'user', name: 'scoped', museumIds: [other.id], rights: ['*'] })).token;
  let first = 0;
  for (let i = 0; i < 32; i++) {
    const t = await f.ticket(db, {
      museumId: i % 4 === 3 ? other.id : m.id,
      title: { de: `Karte ${i} 50%_x`, en: `Ticket ${i}` },
      ...(i % 5 === 0 ? { description: { de: 'Beschreibung', en: 'Description' } } : {}),
      ...(i % 3 === 0 ? { exhibitionIds: [x.id] } : {}),
      ...(i % 6 === 1 ? { salesChannels: ['reseller'], resellerPriceCents: 700 } : {}),
      ...(i % 7 === 2 ? { salesChannels: [] } : {}),
      ...(i === 9 ? { validFrom: '2026-04-01' } : {}),
      ...(i % 2 === 0 ? { quotaIds: [q.id] } : {}),
    });
    if (i === 0) first = t.id;
  }
  const de = await f.language(db, { code: 'de', name: 'Deutsch' });
  const en = await f.language(db, { code: 'en', name: 'English' });
  const [cat] = await db.execute<{ id: number }>(sql`insert into categories (kind, name) values ('event', 'Musik') returning id`).then((r) => r.rows);
  const e = await f.event(db, { museumId: m.id, title: { de: 'Konzert', en: 'Concert' }, featured: true, categoryId: cat!.id });
  await f.event(db, { museumId: other.id, title: { de: 'Lesung', en: 'Reading' }, salesChannels: ['reseller'] });
  for (let d = 0; d < 6; d++) {
    await f.eventDate(db, { eventId: e.id, startAt: new Date(Date.UTC(2026, 2, 24 + d, 17)), languageId: d % 2 ? de.id : en.id, seatsMax: 40 });
  }
  const tour = await f.tour(db, { museumId: m.id, title: { de: 'Rundgang', en: 'Walk' }, languageIds: [en.id, de.id] });
  await f.tour(db, { museumId: other.id, title: { de: 'Ohne Sprache', en: 'No language' } });
  ids = { museum: m.id, other: other.id, exhibition: x.id, ticket: first, event: e.id, tour: tour.id, quota: q.id };
});

function urls(): string[] {
  const { museum, other, exhibition, ticket, event, tour } = ids;
  const lists = ['/tickets', '/events', '/tours', '/museums', '/exhibitions', '/dates', `/events/${event}/dates`];
  return [
    ...lists,
    ...lists.flatMap((l) => [`${l}?page=2&per_page=5`, `${l}?page=99`, `${l}?locale=en`, `${l}?locale[]=de&locale[]=en`, `${l}?q=e`]),
    '/tickets?q=50%25_',
    '/tickets?q=Ticket%201',
    '/tickets?q=nothing-matches',
    `/tickets?by_ticket_ids=${ticket},${ticket + 1},${ticket + 3}`,
    `/tickets?by_museum_ids=${other}`,
    `/tickets?by_exhibition_ids=${exhibition}`,
    '/tickets?by_ticket_type=time_slot',
    '/tickets?by_bookable=true&per_page=7',
    '/tickets?by_bookable=false',
    '/tickets?by_free_timing=true',
    '/tickets?by_free_timing=false&by_ticket_type=time_slot',
    '/tickets?valid_at=2026-04-02',
    `/tickets/${ticket}`,
    `/tickets/${ticket}?locale[]=en&locale[]=de`,
    `/events?by_museum_ids=${museum}&by_featured=true`,
    `/events/${event}`,
    `/tours?by_museum_ids=${museum},${other}`,
    `/tours/${tour}?locale=de`,
    `/exhibitions?by_featured=true`,
    `/museums/${museum}?locale=en`,
    `/dates?start_at=2026-03-25&end_at=2026-03-27`,
    `/events/${event}/dates?date=2026-03-26`,
  ];
}

async function ask(app: typeof plain, url: string, who: string) {
  const token = tokens[who];
  const res = await app.inject({ method: 'GET', url: `/api/v4${url}`, headers: token ? { authorization: `Bearer ${token}` } : {} });
  // An error names its own request; everything else of it must match too.
  const body = res.statusCode === 200 ? res.payload : res.payload.replace(/"request_id":"[^"]+"/, '"request_id":"…"');
  return { status: res.statusCode, body, etag: res.headers.etag, cache: res.headers['x-atrium-cache'], type: res.headers['content-type'] };
}

async function compareAll(): Promise<{ hits: number; bodies: Map<string, string> }> {
  let hits = 0;
  const bodies = new Map<string, string>();
  for (const who of Object.keys(tokens)) {
    for (const url of urls()) {
      const miss = await ask(cached, url, who);
      const hit = await ask(cached, url, who);
      const first = await ask(rowsApp, url, who);
      const again = await ask(rowsApp, url, who);
      const base = await ask(plain, url, who);
      const where = `${who} GET ${url}`;
      assert.equal(base.status, miss.status, where);
      assert.ok(base.status === 200 || base.status === 404, `${where}: ${base.status} ${base.body}`);
      assert.equal(miss.body, base.body, `${where}: cache miss differs from the uncached answer`);
      assert.equal(hit.body, base.body, `${where}: cache hit differs from the uncached answer`);
      assert.equal(hit.etag, base.etag, `${where}: ETag`);
      assert.equal(first.status, base.status, `${where}: row fragments, status`);
      assert.equal(first.body, base.body, `${where}: row fragments (first read) differ from the uncached answer`);
      assert.equal(again.body, base.body, `${where}: row fragments (kept) differ from the uncached answer`);
      assert.equal(again.etag, base.etag, `${where}: row fragments, ETag`);
      assert.equal(again.type, base.type, `${where}: row fragments, content type`);
      assert.equal(again.cache, undefined, `${where}: the rows app keeps no answers`);
      if (hit.cache === 'hit') hits++;
      bodies.set(`${who} ${url}`, base.body);
    }
  }
  return { hits, bodies };
}

test('every list endpoint and filter: cached, row-fragment and uncached answers are byte for byte the same', async () => {
  const { hits } = await compareAll();
  // Control: the comparison above really went through the cache (memo routes answer hits).
  assert.ok(hits > 100, `only ${hits} answers came from the cache`);
  // Control: the rows app assembled lists from kept fragments (every list read twice).
  assert.ok(rowCaches.rows.hits > 500, `only ${rowCaches.rows.hits} row fragments were reused`);
  const sample = (await ask(cached, '/tickets?locale=en', 'reseller')).body;
  assert.ok(JSON.parse(sample).tickets.length > 0, 'the reseller sees tickets');
});

/** The answers after the rename above: where the next test starts from, so it need not ask them again. */
let afterRename: Map<string, string> | undefined;

test('after a catalogue edit both apps give the new answer, byte for byte', async () => {
  const before = (await ask(cached, '/tickets?locale=en', 'anonymous')).body;
  const res = await cached.inject({
    method: 'PUT',
    url: `/api/v4/tickets/${ids.ticket}`,
    headers: { authorization: `Bearer ${tokens.user}` },
    payload: { ticket: { title: { de: 'Neu', en: 'Renamed' } } },
  });
  assert.equal(res.statusCode, 200, res.payload);
  const after = (await ask(cached, '/tickets?locale=en', 'anonymous')).body;
  assert.notEqual(after, before);
  assert.match(after, /Renamed/);
  assert.equal((await ask(plain, '/tickets?locale=en', 'anonymous')).body, after);
  assert.equal((await ask(rowsApp, '/tickets?locale=en', 'anonymous')).body, after);
  afterRename = (await compareAll()).bodies;
});

test('edits of related data and visibility: kept row fragments never answer stale', async () => {
  const before = afterRename ?? (await compareAll()).bodies;
  const reused = rowCaches.rows.hits;
  const { ticket, quota, tour } = ids;
  // A quota link changes; the ticket rows themselves do not (only the related data a fragment shows).
  await db.execute(sql`insert into ticket_quotas (ticket_id, quota_id) values (${ticket + 5}, ${quota})`);
  await db.execute(sql`delete from ticket_quotas where ticket_id = ${ticket + 6}`);
  // Names shown inside event and tour answers, not stored on their rows.
  await db.execute(sql`update languages set name = 'Englisch' where code = 'en'`);
  await db.execute(sql`update categories set name = 'Konzerte' where name = 'Musik'`);
  await db.execute(sql`delete from tour_languages where tour_id = ${tour} and language_id = (select id from languages where code = 'de')`);
  // The museum's address, shown as its events' `location` (go~mus), not stored on the event rows.
  await db.execute(sql`update museums set location = ${JSON.stringify({ city: 'Kassel', street: 'Museumsweg' })}::jsonb where id = ${ids.museum}`);
  // Visibility: a shop ticket becomes reseller-only, a reseller-only one a shop ticket.
  for (const [id, channels] of [[ticket + 4, ['reseller']], [ticket + 1, ['shop', 'reseller']]] as const) {
    const res = await cached.inject({
      method: 'PUT',
      url: `/api/v4/tickets/${id}`,
      headers: { authorization: `Bearer ${tokens.user}` },
      payload: { ticket: { sales_channels: channels } },
    });
    assert.equal(res.statusCode, 200, res.payload);
  }
  // No waiting for notifications: row fragments do not depend on them (the rows app never clears
  // them on a change), and the cached app's own writes above, made last, cleared its answers.
  const { bodies: afterEdits } = await compareAll();
  // Control: the edits changed answers of every kind touched, so stale fragments would have shown.
  const changed = (prefix: string) => [...afterEdits].filter(([k, v]) => k.includes(` ${prefix}`) && before.get(k) !== v).length;
  for (const list of ['/tickets', '/events', '/tours']) assert.ok(changed(list) > 0, `the edits changed some ${list} answers`);
  assert.match(afterEdits.get(`anonymous /events?locale=en`)!, /Konzerte/);
  assert.match(afterEdits.get(`anonymous /events?locale=en`)!, /Englisch/);
  assert.match(afterEdits.get(`anonymous /events?locale=en`)!, /"location":\{"city":"Kassel","street":"Museumsweg"\}/);
  // ...and fragments of rows the edits did not touch were still reused afterwards.
  assert.ok(rowCaches.rows.hits > reused + 500, 'untouched rows kept their fragments');
});
