// The answer cache changes no answer (issue #19): two apps on one database, one with the
// in-process caches (src/cache, as `atrium serve` runs) and one without, answer every catalogue
// list endpoint, for each kind of caller and a spread of filters (q=, pagination, locales, ids
// filters, valid_at, featured), with the same status, the same body byte for byte and the same
// ETag: on the cache's miss, on its hit, and against the uncached app. Control: the cached app
// really answers the second request from the cache (x-atrium-cache: hit), and a catalogue edit
// reaches both apps alike.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { cachedAndPlainApps } from '../helpers/cache-pair.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase();
const clock = new ManualClock('2026-03-23T08:00:00Z');
const { cached, plain } = await cachedAndPlainApps(database, clock);

const db = database.db;
const tokens: Record<string, string | undefined> = { anonymous: undefined };
let ids = { museum: 0, other: 0, exhibition: 0, ticket: 0, event: 0, tour: 0 };

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
  const e = await f.event(db, { museumId: m.id, title: { de: 'Konzert', en: 'Concert' }, featured: true });
  await f.event(db, { museumId: other.id, title: { de: 'Lesung', en: 'Reading' }, salesChannels: ['reseller'] });
  for (let d = 0; d < 6; d++) {
    await f.eventDate(db, { eventId: e.id, startAt: new Date(Date.UTC(2026, 2, 24 + d, 17)), languageId: d % 2 ? de.id : en.id, seatsMax: 40 });
  }
  const tour = await f.tour(db, { museumId: m.id, title: { de: 'Rundgang', en: 'Walk' }, languageIds: [en.id, de.id] });
  await f.tour(db, { museumId: other.id, title: { de: 'Ohne Sprache', en: 'No language' } });
  ids = { museum: m.id, other: other.id, exhibition: x.id, ticket: first, event: e.id, tour: tour.id };
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
  return { status: res.statusCode, body, etag: res.headers.etag, cache: res.headers['x-atrium-cache'] };
}

async function compareAll(): Promise<number> {
  let hits = 0;
  for (const who of Object.keys(tokens)) {
    for (const url of urls()) {
      const miss = await ask(cached, url, who);
      const hit = await ask(cached, url, who);
      const base = await ask(plain, url, who);
      const where = `${who} GET ${url}`;
      assert.equal(base.status, miss.status, where);
      assert.ok(base.status === 200 || base.status === 404, `${where}: ${base.status} ${base.body}`);
      assert.equal(miss.body, base.body, `${where}: cache miss differs from the uncached answer`);
      assert.equal(hit.body, base.body, `${where}: cache hit differs from the uncached answer`);
      assert.equal(hit.etag, base.etag, `${where}: ETag`);
      if (hit.cache === 'hit') hits++;
    }
  }
  return hits;
}

test('every list endpoint and filter: cached and uncached answers are byte for byte the same', async () => {
  const hits = await compareAll();
  // Control: the comparison above really went through the cache (memo routes answer hits).
  assert.ok(hits > 100, `only ${hits} answers came from the cache`);
  const sample = (await ask(cached, '/tickets?locale=en', 'reseller')).body;
  assert.ok(JSON.parse(sample).tickets.length > 0, 'the reseller sees tickets');
});

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
  await compareAll();
});
