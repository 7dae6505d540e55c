// `atrium seed --demo` through the real command line, and the `serve --demo` hook in process.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import { seedDemoIfEmpty } from '../../src/domain/demo/seedIfEmpty.ts';
import { loadConfig } from '../../src/config.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { addDays, localDateOf } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import { runCli } from './cli.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const database = await freshDatabase();
const other = await freshDatabase({ max: 2 });
const config = loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' });
after(async () => {
  await database.drop();
  await other.drop();
});
const env = { DATABASE_URL: database.url };
const rows = async <T>(q: ReturnType<typeof sql>) => (await database.db.execute(q)).rows as T[];
const count = async (table: string) => (await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

describe('atrium seed --demo', () => {
  test('loads the demo catalogue; running it again updates and never duplicates', async () => {
    const [bare, first] = await Promise.all([runCli(['seed'], env), runCli(['seed', '--demo'], env)]);
    assert.equal(bare.code, 1);
    assert.match(bare.stderr, /atrium seed --demo/);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /museums\s+2 created/);
    const tables = ['museums', 'quotas', 'tickets', 'ticket_quotas', 'events', 'event_dates', 'tours', 'tour_languages', 'languages'];
    const before = await Promise.all(tables.map(count));
    const again = await runCli(['seed', '--demo'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /museums\s+0 created, 0 updated, 2 unchanged/);
    assert.deepEqual(await Promise.all(tables.map(count)), before);
  });

  test('the demo has what the issue asks for', async () => {
    const today = localDateOf(new Date(), 'Europe/Berlin');
    const museums = await rows<{ time_zone: string }>(sql`select time_zone from museums`);
    assert.deepEqual(museums.map((m) => m.time_zone), ['Europe/Berlin', 'Europe/Berlin']);
    // A slot quota and a day quota shared by a time-slot ticket and a day ticket.
    const shared = await rows<{ kind: string; types: string[] }>(sql`
      select q.kind, array_agg(distinct t.ticket_type order by t.ticket_type) as types
      from quotas q join ticket_quotas tq on tq.quota_id = q.id join tickets t on t.id = tq.ticket_id group by q.id, q.kind`);
    assert.ok(shared.some((q) => q.kind === 'day' && q.types.join() === 'normal,time_slot'));
    assert.ok(shared.some((q) => q.kind === 'slot' && q.types.includes('time_slot')));
    const tickets = await rows<{ sales_channels: string[]; reseller_price_cents: number | null; valid_until: string | null; valid_from: string | null }>(
      sql`select sales_channels, reseller_price_cents, valid_from, valid_until from tickets`,
    );
    assert.ok(tickets.some((t) => t.sales_channels.join() === 'reseller'), 'a reseller-only ticket');
    assert.ok(tickets.some((t) => t.sales_channels.length === 0), 'a back-office-only ticket');
    assert.ok(tickets.some((t) => t.sales_channels.includes('shop') && t.reseller_price_cents !== null), 'a shop ticket with a reseller price');
    for (const t of tickets) {
      assert.ok(!t.valid_from || t.valid_from <= today);
      assert.ok(!t.valid_until || t.valid_until >= addDays(today, 60));
    }
    const events = await rows<{ n: number; first: string; last: string }>(
      sql`select count(*)::int as n, min(start_at) as first, max(start_at) as last from event_dates group by event_id`,
    );
    assert.ok(events.length >= 3 && events.length <= 4);
    // The recurring weekend event: every date on a Saturday or Sunday at 14:00 Berlin time.
    const weekend = await rows<{ dow: number; hm: string }>(sql`
      select extract(isodow from d.start_at at time zone 'Europe/Berlin')::int as dow, to_char(d.start_at at time zone 'Europe/Berlin', 'HH24:MI') as hm
      from event_dates d join catalog_keys k on k.kind = 'event' and k.record_id = d.event_id where k.key = 'demo-family-sunday'`);
    assert.ok(weekend.length >= 14, `${weekend.length} weekend dates`);
    assert.ok(weekend.every((w) => (w.dow === 6 || w.dow === 7) && w.hm === '14:00'));
    for (const e of events) {
      assert.ok(e.n >= 1 && new Date(e.first) > new Date(), `${e.first} is in the future`);
      assert.ok(new Date(e.last).getTime() < Date.now() + 61 * 86_400_000, `${e.last} is within 60 days`);
    }
    const tours = await rows<{ codes: string[] }>(sql`
      select array_agg(l.code order by l.code) as codes from tour_languages tl join languages l on l.id = tl.language_id group by tl.tour_id`);
    assert.deepEqual(tours.map((t) => t.codes.join()), ['de,en', 'de,en']);
  });

  test('GET /api/v4/tickets lists the demo tickets for each caller', async () => {
    const app = await buildApp({ database, config, logger: false, ...TEST_SCHEMAS });
    try {
      const titles = async (token?: string) => {
        const res = await app.inject({ method: 'GET', url: '/api/v4/tickets?locale=en&per_page=100', ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
        assert.equal(res.statusCode, 200, res.body);
        return (res.json().tickets as Array<{ title: string }>).map((t) => t.title).sort();
      };
      const shop = await titles();
      assert.ok(shop.includes('Timed entry regular') && shop.includes('Day ticket'), shop.join());
      assert.ok(!shop.includes('Partner ticket (resellers only)') && !shop.includes('Complimentary (back office)'));
      const reseller = await titles((await createToken({ db: database.db, clock: systemClock }, { class: 'reseller', name: 'R' })).token);
      assert.ok(reseller.includes('Partner ticket (resellers only)'));
      const user = await titles((await createToken({ db: database.db, clock: systemClock }, { class: 'user', name: 'U', rights: ['all'] })).token);
      assert.equal(user.length, 7);
    } finally {
      await app.close();
    }
  });

  test('seedDemoIfEmpty (serve --demo) loads only into an empty catalogue', async () => {
    assert.equal(await seedDemoIfEmpty(other, config), true);
    assert.equal(await seedDemoIfEmpty(other, config), false);
    assert.equal(await seedDemoIfEmpty(database, config), false);
    const n = await other.db.execute<{ n: number }>(sql`select count(*)::int as n from tickets`);
    assert.equal(n.rows[0]!.n, 7);
  });
});
