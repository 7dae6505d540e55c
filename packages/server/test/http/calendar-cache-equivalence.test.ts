// Availability answers are the same with and without the process caches:
// the ticket calendar and the capacity reads keep a plan of each ticket's sellable slots per
// date, built from the master-data memo (availability/internal.ts). Two apps on one database,
// one with the caches as `atrium serve` runs them and one without, must answer byte for byte
// alike: first, again (from the plans), and after each change that a plan depends on (a
// booking, weekly hours, a season, an exception, a closure and its removal, capacity overrides
// per date and per slot). Control: each change really changes the calendar or the capacity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { isoInZone, zonedInstant } from '../../src/domain/time.ts';
import { cachedAndPlainApps } from '../helpers/cache-pair.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const Z = 'Europe/Berlin';
const database = await freshDatabase();
const clock = new ManualClock('2026-03-23T08:00:00Z');
const { cached, plain } = await cachedAndPlainApps(database, clock);

const db = database.db;
const staff = (await createToken({ db, clock }, { class: 'user', name: 'staff', museumIds: [], rights: ['*'] })).token;
const m = await f.museum(db);
const q = await f.quota(db, { museumId: m.id, kind: 'slot', capacity: 2 });
const dayQ = await f.quota(db, { museumId: m.id, kind: 'day', capacity: 5 });
const T = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] }); // 10:00-17:00 every 30 minutes
const D = await f.ticket(db, { museumId: m.id, ticketType: 'normal', firstEntry: 600, lastEntry: 1020, quotaIds: [dayQ.id] });
const U = await f.ticket(db, { museumId: m.id }); // no quota
const V = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], validFrom: '2026-04-10', validUntil: '2026-04-20' });
const ids = [T.id, D.id, U.id, V.id];

const urls = () => [
  `/tickets/calendar?by_ticket_ids=${ids.join(',')}&start_at=2026-04-01&end_at=2026-04-30`,
  ...ids.map((id) => `/tickets/calendar?by_ticket_ids=${id}&start_at=2026-03-23&end_at=2026-04-22`),
  `/tickets/calendar?by_ticket_ids=${T.id}`,
  `/tickets/calendar?by_ticket_ids=${T.id},${D.id}&start_at=2026-04-01&end_at=2026-04-30&depth=all`,
  ...['2026-03-23', '2026-04-07', '2026-04-08', '2026-04-14'].flatMap((d) => [
    ...ids.map((id) => `/tickets/${id}/capacity?date=${d}`),
    `/tickets/capacities?ticket_ids=${ids.join(',')}&date=${d}`,
  ]),
];

async function ask(app: typeof plain, url: string) {
  const res = await app.inject({ method: 'GET', url: `/api/v4${url}`, headers: { authorization: `Bearer ${staff}` } });
  assert.equal(res.statusCode, 200, `${url}: ${res.payload}`);
  return res.payload;
}

/** Every URL: the cached app twice (plans built, then reused) and the plain app, byte for byte. */
async function compareAll(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const url of urls()) {
    const first = await ask(cached, url);
    const again = await ask(cached, url);
    const base = await ask(plain, url);
    assert.equal(first, base, `GET ${url}: cached app differs from the uncached one`);
    assert.equal(again, base, `GET ${url}: cached app, asked again, differs from the uncached one`);
    out.set(url, base);
  }
  return out;
}

async function write(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await cached.inject({ method, url: `/api/v4${url}`, headers: { authorization: `Bearer ${staff}` }, ...(payload ? { payload } : {}) });
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.payload}`);
  return res.payload ? JSON.parse(res.payload) : null;
}

test('cached and uncached availability agree before and after every change a plan depends on', async () => {
  let answers = await compareAll();
  const changes: Array<[string, () => Promise<unknown>]> = [
    ['a booking sells out 10:00 on 7 April', () => write('POST', '/orders', { items: [{ type: 'Ticket', attributes: { id: T.id, quantity: 2, time: isoInZone(zonedInstant('2026-04-07', 600, Z), Z) } }], finalize: true })],
    ['weekly hours: Tuesdays closed', () => write('PUT', `/museums/${m.id}/schedule`, { weekly: { tuesday: 'closed' } })],
    ['a season: Wednesdays 12:00-14:00 in April', () => write('PUT', `/museums/${m.id}/schedule`, { seasons: [{ start_date: '2026-04-01', end_date: '2026-04-30', hours: { monday: '10:00-18:00', tuesday: 'closed', wednesday: '12:00-14:00', thursday: '10:00-18:00', friday: '10:00-18:00', saturday: '10:00-18:00', sunday: '10:00-18:00' } }] })],
    ['an exception: 15 April closed', () => write('PUT', `/museums/${m.id}/schedule`, { exceptions: { '2026-04-15': 'closed' } })],
    ['capacity per date and per slot', () => write('PUT', `/quotas/${q.id}/capacities`, { capacities: [{ date: '2026-04-08', capacity: 0 }, { date: '2026-04-09', time: '10:00', capacity: 0 }, { date: '2026-03-23', time: '16:00', capacity: 7 }] })],
  ];
  let closureId = 0;
  changes.push(['a closure of the whole museum on 16 April', async () => (closureId = (await write('POST', '/closures', { closure: { museum_id: m.id, start_date: '2026-04-16', reason: 'Inventory' } })).closure.id)]);
  changes.push(['the closure removed', () => write('DELETE', `/closures/${closureId}`)]);
  for (const [what, change] of changes) {
    await change();
    const now = await compareAll();
    const changed = [...now].filter(([url, body]) => answers.get(url) !== body).length;
    assert.ok(changed > 0, `${what}: no answer changed, so the comparison proves nothing`);
    answers = now;
  }
});
