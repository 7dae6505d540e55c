// Shop settings: the console page (admins only, CSRF, audited, validated as a whole), the
// frame-ancestors they feed into the shop pages' CSP, GET /api/v4/shop, and /shop/embed.js.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn, type Browser } from '../console/support.ts';
import { issueManageLink } from '../../src/domain/shop/manageLink.ts';

let fx: ConsoleFixture;
let admin: Browser;
before(async () => {
  fx = await consoleFixture();
  admin = await signIn(fx.t, fx.staff.admin);
});
after(() => fx.t.close());

const FORM = {
  title_de: 'Museumsshop', title_en: 'Museum shop', colour: '#AA3300', logo_url: 'https://museum.example/logo.png',
  welcome_de: 'Willkommen <b>hier</b>', welcome_en: 'Welcome', terms_url: 'https://museum.example/agb',
  privacy_url: 'https://museum.example/datenschutz', imprint_url: 'https://museum.example/impressum',
  offers: 'ticket:5\nevent:2', cancellation: 'hours', cancellation_hours: '48', embed_origins: 'https://museum.example\nhttps://www.museum.example:8443',
};

describe('settings page', () => {
  test('an admin saves them; the change is audited with before and after', async () => {
    const page = await admin.get('/console/shop');
    assert.equal(page.statusCode, 200, page.body);
    const res = await admin.post('/console/shop', FORM);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/console/shop?notice=shopsaved');
    const again = await admin.get('/console/shop');
    assert.match(again.body, /value="Museumsshop"/);
    assert.match(again.body, /Willkommen &lt;b&gt;hier&lt;\/b&gt;/, 'texts are escaped');
    const [entry] = (await fx.t.database.db.execute<{ before: any; after: any }>(sql`select before, after from audit_log where action = 'shop.settings.update' order by id desc limit 1`)).rows;
    assert.equal(entry!.before.colour, '#1f4e79');
    assert.equal(entry!.after.colour, '#aa3300');
    assert.equal(entry!.after.cancellationDefault, '48h');
    assert.deepEqual(entry!.after.offers, [{ type: 'ticket', id: 5 }, { type: 'event', id: 2 }]);
  });

  test('other roles are refused; a form without the CSRF token is refused', async () => {
    for (const role of ['manager', 'box_office', 'viewer'] as const) {
      const b = await signIn(fx.t, fx.staff[role]);
      assert.equal((await b.get('/console/shop')).statusCode, 403, role);
      assert.equal((await b.post('/console/shop', FORM)).statusCode, 403, role);
    }
    const forged = await admin.post('/console/shop', FORM, { csrf: null });
    assert.equal(forged.statusCode, 403);
  });

  test('bad input is a 422 page naming the fields, and nothing changes', async () => {
    const res = await admin.post('/console/shop', { ...FORM, colour: 'red', embed_origins: 'https://ok.example/path', offers: 'banana' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /colour must be #rrggbb/);
    assert.match(res.body, /embedOrigins/);
    const api = (await fx.t.request({ method: 'GET', url: '/api/v4/shop' })).json();
    assert.equal(api.shop.colour, '#aa3300');
  });
});

describe('GET /api/v4/shop', () => {
  test("answers the shop object with its translations", async () => {
    const res = await fx.t.request({ method: 'GET', url: '/api/v4/shop' });
    assert.equal(res.statusCode, 200, res.body);
    const s = res.json().shop;
    assert.equal(s.title, 'Museumsshop');
    assert.deepEqual(s.translations.en.title, 'Museum shop');
    assert.equal(s.translations.de.welcome, 'Willkommen <b>hier</b>');
    assert.equal(s.colour, '#aa3300');
    assert.equal(s.logo_url, 'https://museum.example/logo.png');
    assert.deepEqual(s.links, { terms: 'https://museum.example/agb', privacy: 'https://museum.example/datenschutz', imprint: 'https://museum.example/impressum' });
    assert.deepEqual(s.cancellation, { rule: '48h', hours: 48 });
    assert.deepEqual(s.offers, [{ type: 'ticket', id: 5 }, { type: 'event', id: 2 }]);
    assert.ok(Array.isArray(s.locales) && s.locales.includes('de'));
    assert.equal(s.currency, 'EUR');
    assert.equal(res.json().shop.embed_origins, undefined, 'the embedding list is the operator\'s, not public');
    const en = (await fx.t.request({ method: 'GET', url: '/api/v4/shop?locale=en' })).json().shop;
    assert.equal(en.title, 'Museum shop');
  });
});

describe('embedding', () => {
  test('the shop pages may be framed by the allowed websites only', async () => {
    const order = (await fx.t.database.db.execute<{ id: number }>(sql`select id from orders order by id limit 1`)).rows[0];
    const url = order ? `/shop/manage/${await issueManageLink({ db: fx.t.database.db, clock: fx.t.clock }, order.id)}` : '/shop/manage/unknown';
    const res = await fx.t.app.inject({ url });
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /frame-ancestors 'self' https:\/\/museum\.example https:\/\/www\.museum\.example:8443(;|$)/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.equal(res.headers['x-frame-options'], undefined);
  });

  test('/shop/embed.js is a script with a strict CSP, loadable from other sites', async () => {
    const res = await fx.t.app.inject({ url: '/shop/embed.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.match(res.body, /e\.origin !== base/, 'height messages are accepted from the shop origin only');
    const frame = await fx.t.app.inject({ url: '/shop/embed/frame.js' });
    assert.equal(frame.statusCode, 200);
    assert.match(frame.body, /atrium:height/);
  });
});
