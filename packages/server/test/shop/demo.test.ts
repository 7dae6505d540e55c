// The demo fills the shop settings: GET /api/v4/shop answers them after a demo seed, and the
// demo's own cancellation rules are set on its products.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import { seedDemo } from '../../src/domain/demo/seedDemo.ts';

let t: TestApp;
before(async () => {
  t = await testApp({ env: { ATRIUM_DEMO: '1', ATRIUM_PAYMENT_PROVIDERS: 'demo' } });
  await seedDemo({ db: t.database.db, clock: t.clock });
});
after(() => t.close());

test('the demo shop has its title, texts, links, offers and rules', async () => {
  const res = await t.request({ method: 'GET', url: '/api/v4/shop?locale=en' });
  assert.equal(res.statusCode, 200, res.body);
  const s = res.json().shop;
  assert.equal(s.title, 'Tickets – Kunsthalle & City Museum');
  assert.match(s.translations.de.welcome, /Buchen Sie/);
  assert.equal(s.links.terms, 'https://example.org/terms');
  assert.equal(s.offers.length, 6);
  assert.deepEqual(s.cancellation, { rule: '24h', hours: 24 });
  assert.deepEqual(s.payment_providers, ['demo']);
  const rules = (await t.database.db.execute<{ rule: string }>(sql`select cancellation_rule as rule from tickets where cancellation_rule is not null order by rule`)).rows;
  assert.deepEqual(rules.map((r) => r.rule), ['48h', 'never']);
  // Seeding again keeps what an admin changed.
  await t.database.db.execute(sql`update shop_settings set settings = jsonb_set(settings, '{colour}', '"#000000"')`);
  await seedDemo({ db: t.database.db, clock: t.clock });
  assert.equal((await t.request({ method: 'GET', url: '/api/v4/shop' })).json().shop.colour, '#000000');
});
