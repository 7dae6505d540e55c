// Context-aware catalogue (spec 1, docs/api-contract.md §3): every token class on every catalogue endpoint —
// what each sees, what is 404, and that back-office fields and reseller prices reach only the
// right callers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { accounts } from '../../src/db/schema/index.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

// A fixed clock mid-month keeps 'today to end of month' (the /dates default) away from month ends.
const t = await testApp({ now: '2026-07-06T08:00:00Z' });
after(() => t.close());
const db = t.database.db;

type Ids = Record<string, number>;
const id: Ids = {};
const tok: Record<string, string | undefined> = { none: undefined };

async function accountId(name: string) {
  const [a] = await db.select().from(accounts).where(eq(accounts.name, name));
  return a!.id;
}

before(async () => {
  const A = await f.museum(db, { title: { de: 'Museum A' } });
  const B = await f.museum(db, { title: { de: 'Museum B' } });
  Object.assign(id, { A: A.id, B: B.id });
  tok.public = await t.token({ class: 'public' });
  tok.userA = await t.token({ class: 'user', museumIds: [A.id], rights: ['catalog:read'] });
  tok.named = await t.token({ class: 'reseller', name: 'reseller-named' });
  tok.other = await t.token({ class: 'reseller', name: 'reseller-other' });
  const r1 = await accountId('reseller-named');
  id.exA = (await f.exhibition(db, { museumId: A.id })).id;
  id.exB = (await f.exhibition(db, { museumId: B.id })).id;
  id.qA = (await f.quota(db, { museumId: A.id })).id;
  id.qB = (await f.quota(db, { museumId: B.id })).id;
  const tk = (o: Parameters<typeof f.ticket>[1]) => f.ticket(db, o).then((r) => r.id);
  id.shopT = await tk({ museumId: A.id, salesChannels: ['shop'], quotaIds: [id.qA] });
  id.resT = await tk({ museumId: A.id, salesChannels: ['reseller'], resellerPriceCents: 1100 });
  id.namedT = await tk({ museumId: A.id, salesChannels: ['reseller'], resellerAccountIds: [r1] });
  id.backT = await tk({ museumId: A.id, salesChannels: [] });
  id.inactiveT = await tk({ museumId: A.id, active: false });
  id.shopB = await tk({ museumId: B.id, quotaIds: [id.qB] });
  const de = await f.language(db, { code: 'de', name: 'Deutsch' });
  const en = await f.language(db, { code: 'en', name: 'English' });
  Object.assign(id, { de: de.id, en: en.id });
  id.shopE = (await f.event(db, { museumId: A.id, salesChannels: ['shop'] })).id;
  id.resE = (await f.event(db, { museumId: A.id, salesChannels: ['reseller'], resellerPriceCents: 500 })).id;
  const soon = new Date(t.clock.now().getTime() + 3_600_000);
  id.shopD = (await f.eventDate(db, { eventId: id.shopE, startAt: soon, languageId: de.id })).id;
  id.resD = (await f.eventDate(db, { eventId: id.resE, startAt: soon, languageId: en.id })).id;
  id.offD = (await f.eventDate(db, { eventId: id.shopE, startAt: soon, active: false })).id;
  id.shopTour = (await f.tour(db, { museumId: A.id, salesChannels: ['shop'], languageIds: [de.id] })).id;
  id.backTour = (await f.tour(db, { museumId: A.id, salesChannels: [], languageIds: [en.id] })).id;
});

async function get(who: string, url: string) {
  const res = await t.request({ method: 'GET', url: `/api/v4${url}`, ...(tok[who] ? { token: tok[who] } : {}) });
  return res;
}
async function ids(who: string, url: string, key: string) {
  const res = await get(who, url);
  assert.equal(res.statusCode, 200, `${who} ${url}: ${res.body}`);
  return (res.json()[key] as Array<{ id: number }>).map((r) => r.id);
}

const WHO = ['none', 'public', 'userA', 'named', 'other'] as const;

describe('catalogue per token class', () => {
  test('tickets: channels, named resellers, back office, inactive and museum scope', async () => {
    const expected: Record<string, string[]> = {
      none: ['shopT', 'shopB'],
      public: ['shopT', 'shopB'],
      userA: ['shopT', 'resT', 'namedT', 'backT'],
      named: ['resT', 'namedT', 'shopB'],
      other: ['resT', 'shopB'],
    };
    const all = ['shopT', 'resT', 'namedT', 'backT', 'inactiveT', 'shopB'];
    for (const who of WHO) {
      const want = expected[who]!.map((k) => id[k]!).sort((a, b) => a - b);
      assert.deepEqual(await ids(who, '/tickets', 'tickets'), want, who);
      for (const k of all) {
        const res = await get(who, `/tickets/${id[k]}`);
        if (expected[who]!.includes(k)) assert.equal(res.statusCode, 200, `${who} ${k}`);
        else assert.deepEqual([res.statusCode, res.json().error], [404, 'ticket not found'], `${who} ${k}`);
      }
    }
  });

  test('back-office fields for users only; reseller price for resellers only; bookable for the caller', async () => {
    const user = (await get('userA', `/tickets/${id.resT}`)).json().ticket;
    assert.deepEqual(user.sales_channels, ['reseller']);
    assert.equal(user.reseller_price_cents, 1100);
    assert.equal(user.price_cents, 1400);
    assert.equal(user.active, true);
    assert.equal(user.bookable, true);
    const reseller = (await get('other', `/tickets/${id.resT}`)).json().ticket;
    assert.equal(reseller.price_cents, 1100);
    for (const f of ['sales_channels', 'reseller_price_cents', 'active', 'reseller_account_ids']) assert.ok(!(f in reseller), f);
    const anon = (await get('none', `/tickets/${id.shopT}`)).json().ticket;
    assert.equal(anon.bookable, true, 'shop products are bookable in the shop');
    assert.ok(!('sales_channels' in anon));
    assert.deepEqual(anon.museum_ids, [id.A]);
    assert.deepEqual(anon.quota_ids, [id.qA]);
  });

  test('museums and exhibitions follow the museum scope', async () => {
    for (const who of WHO) {
      const scoped = who === 'userA';
      assert.deepEqual(await ids(who, '/museums', 'museums'), scoped ? [id.A] : [id.A, id.B], who);
      assert.deepEqual(await ids(who, '/exhibitions', 'exhibitions'), scoped ? [id.exA] : [id.exA, id.exB], who);
      const mb = await get(who, `/museums/${id.B}`);
      assert.equal(mb.statusCode, scoped ? 404 : 200, who);
      if (scoped) assert.equal(mb.json().error, 'museum not found');
      assert.equal((await get(who, `/museums/${id.B}/opening_hours`)).statusCode, scoped ? 404 : 200, who);
      assert.equal((await get(who, `/exhibitions/${id.exB}`)).statusCode, scoped ? 404 : 200, who);
    }
    const weekly = (await get('userA', `/museums/${id.A}`)).json().museum;
    assert.ok(Array.isArray(weekly.weekly_opening_hours), 'users see the weekly hours');
    assert.ok(!('weekly_opening_hours' in (await get('none', `/museums/${id.A}`)).json().museum));
  });

  test('events, dates and tours per class; an inactive date or a foreign event id is 404', async () => {
    const sees: Record<string, string[]> = { none: ['shopE'], public: ['shopE'], userA: ['shopE', 'resE'], named: ['resE'], other: ['resE'] };
    for (const who of WHO) {
      const evs = sees[who]!;
      assert.deepEqual(await ids(who, '/events', 'events'), evs.map((k) => id[k]), who);
      const dateIds = evs.map((k) => (k === 'shopE' ? id.shopD : id.resD));
      assert.deepEqual(await ids(who, '/dates', 'dates'), dateIds, who);
      for (const [e, d] of [['shopE', 'shopD'], ['resE', 'resD']] as const) {
        const visible = evs.includes(e);
        assert.equal((await get(who, `/events/${id[e]}`)).statusCode, visible ? 200 : 404, `${who} ${e}`);
        assert.equal((await get(who, `/events/${id[e]}/dates`)).statusCode, visible ? 200 : 404, `${who} ${e} dates`);
        const one = await get(who, `/events/${id[e]}/dates/${id[d]}`);
        assert.equal(one.statusCode, visible ? 200 : 404, `${who} ${d}`);
        if (!visible) assert.equal(one.json().error, 'date not found');
      }
      assert.equal((await get(who, `/events/${id.shopE}/dates/${id.offD}`)).statusCode, 404, 'inactive date');
      assert.equal((await get(who, `/events/${id.resE}/dates/${id.shopD}`)).statusCode, 404, 'date of another event');
      const tours = who === 'userA' ? [id.shopTour, id.backTour] : who === 'named' || who === 'other' ? [] : [id.shopTour];
      assert.deepEqual(await ids(who, '/tours', 'tours'), tours, who);
      assert.equal((await get(who, `/tours/${id.backTour}`)).statusCode, who === 'userA' ? 200 : 404, who);
    }
    const date = (await get('named', `/events/${id.resE}/dates/${id.resD}`)).json().date;
    assert.equal(date.price_cents, 500, 'reseller price on dates');
    assert.deepEqual(date.language, { id: id.en, name: 'English' });
    assert.deepEqual(date.seats, { min: 1, max: 20, booked: 0, available: 20, max_per_registration: null });
    assert.equal(date.bookable, true);
  });

  test('languages: only those of visible tours/dates; users see all', async () => {
    const names = async (who: string, url: string) => (await get(who, url)).json().languages.map((l: { name: string }) => l.name);
    assert.deepEqual(await names('none', '/tours/languages'), ['Deutsch']);
    assert.deepEqual(await names('named', '/tours/languages'), []);
    assert.deepEqual(await names('userA', '/tours/languages'), ['Deutsch', 'English']);
    assert.deepEqual(await names('none', '/events/languages'), ['Deutsch']);
    assert.deepEqual(await names('other', '/events/languages'), ['English']);
  });

  test('quotas: users only, within their museums', async () => {
    assert.equal((await get('none', '/quotas')).statusCode, 401);
    for (const who of ['public', 'named']) assert.equal((await get(who, '/quotas')).statusCode, 403, who);
    assert.deepEqual(await ids('userA', '/quotas', 'quotas'), [id.qA]);
    assert.equal((await get('userA', `/quotas/${id.qB}`)).statusCode, 404);
    const q = (await get('userA', `/quotas/${id.qA}`)).json().quota;
    assert.deepEqual(q.ticket_ids, [id.shopT]);
  });

  test('a bad token is 401 on every public catalogue endpoint', async () => {
    const urls = ['/museums', `/museums/${id.A}`, `/museums/${id.A}/opening_hours`, '/exhibitions', '/tickets', `/tickets/${id.shopT}`,
      '/events', `/events/${id.shopE}`, `/events/${id.shopE}/dates`, `/events/${id.shopE}/dates/${id.shopD}`, '/dates', '/tours',
      `/tours/${id.shopTour}`, '/tours/languages', '/events/languages'];
    for (const url of urls) {
      const res = await t.request({ method: 'GET', url: `/api/v4${url}`, token: 'atr_nonsense_token' });
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.json().code, 'UNAUTHORIZED');
      assert.equal((await get('none', url)).statusCode, 200, `${url} anonymous`);
    }
  });
});
