// Gift cards, promo codes and the gift-card reports in the console over HTTP as signed-in
// browsers: a card found by the end of its code, its number or the recipient, its page with
// ledger and never the code, a correction confirmed before it is booked and refused in words;
// promo codes created, refused with what was typed kept, switched off; the liability and ledger
// reports with their CSV.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { signIn, staffUser, type Browser } from './support.ts';

let fx: ConsoleFixture;
let manager: Browser;
before(async () => {
  fx = await consoleFixture();
  manager = await signIn(fx.t, fx.staff.manager);
});
after(() => fx.t.close());

const db = () => fx.t.database.db;
async function issue(cents: number, recipient?: string): Promise<{ id: number; code: string }> {
  const res = await fx.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: fx.user, payload: { amount_cents: cents, ...(recipient ? { recipient } : {}) } });
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().gift_card.id, code: res.json().gift_card.code };
}
const ledger = async (id: number) => (await db().execute<{ kind: string; amount_cents: number; reason: string | null }>(sql`select kind, amount_cents, reason from gift_card_ledger where gift_card_id = ${id} order by id`)).rows;

describe('gift cards', () => {
  test('found by the end of the code, the number or the recipient; the page shows balance, end and ledger, never the code', async () => {
    const card = await issue(4000, 'Frau <b>Kästner</b>');
    const viewer = await signIn(fx.t, fx.staff.viewer);
    for (const q of [card.code.slice(-4).toLowerCase(), card.code.slice(-2), String(card.id), 'kästner']) {
      const res = await viewer.get(`/console/gift-cards?q=${encodeURIComponent(q)}`);
      assert.equal(res.statusCode, 200);
      assert.ok(res.body.includes(`href="/console/gift-cards/${card.id}"`), `found by ${q}`);
      assert.ok(!res.body.includes('<b>Kästner'), 'escaped');
    }
    assert.match((await viewer.get('/console/gift-cards?q=%25%25')).body, /No gift card found/);
    const page = await viewer.get(`/console/gift-cards/${card.id}`);
    assert.equal(page.statusCode, 200);
    for (const s of ['€40.00', 'Valid until', 'Ledger', 'issued', `Gift card …${card.code.slice(-4)}`, 'Frau &lt;b&gt;Kästner&lt;/b&gt;']) assert.ok(page.body.includes(s), s);
    assert.ok(!page.body.includes(card.code.slice(0, 8)), 'no more than the last four characters');
    assert.ok(!page.body.includes('Correct the balance'), 'a viewer does not correct');
    assert.equal((await viewer.get('/console/gift-cards/999999')).statusCode, 404);
  });

  test('a correction is confirmed first, then booked with its reason; refusals keep what was typed', async () => {
    const card = await issue(2000);
    const page = await manager.get(`/console/gift-cards/${card.id}`);
    assert.match(page.body, /Correct the balance/);
    const ask = await manager.post(`/console/gift-cards/${card.id}/correct`, { amount: '-5,50', reason: 'Doppelt gebucht' });
    assert.equal(ask.statusCode, 200);
    assert.match(ask.body, /changes by -€5\.50: from €20\.00 to €14\.50|changes by −€5\.50: from €20\.00 to €14\.50/);
    assert.match(ask.body, /name="confirm" value="1"/);
    assert.equal((await ledger(card.id)).length, 1, 'nothing booked before the confirmation');
    const done = await manager.post(`/console/gift-cards/${card.id}/correct`, { amount: '-5,50', reason: 'Doppelt gebucht', confirm: '1' });
    assert.equal(done.statusCode, 303);
    assert.deepEqual((await ledger(card.id)).at(-1), { kind: 'corrected', amount_cents: -550, reason: 'Doppelt gebucht' });
    const shown = await manager.get(String(done.headers.location));
    assert.match(shown.body, /The correction is booked/);
    assert.match(shown.body, /corrected/);
    for (const [form, message] of [
      [{ amount: '0', reason: 'x' }, /non-zero amount/],
      [{ amount: 'fünf', reason: 'Kulanz' }, /non-zero amount/],
      [{ amount: '5', reason: '' }, /Please give a reason/],
      [{ amount: '-100', reason: 'Zu viel', confirm: '1' }, /The balance cannot go below zero; nothing was booked/],
    ] as const) {
      const res = await manager.post(`/console/gift-cards/${card.id}/correct`, form);
      assert.equal(res.statusCode, 422, JSON.stringify(form));
      assert.match(res.body, message);
      assert.ok(res.body.includes(`value="${form.amount}"`), 'the amount typed is kept');
    }
    assert.equal((await ledger(card.id)).length, 2, 'refusals book nothing');
  });
});

describe('promo codes', () => {
  test('created, listed with their limits, refused with what was typed kept, switched off and on', async () => {
    const res = await manager.post('/console/promo-codes', {
      code: 'sommer-25', kind: 'percent', percent: '25', cap: '10', channels: ['desk', 'shop'], ticket_ids: String(fx.A.ticketId),
      visit_from: '2030-06-01', visit_until: '2030-08-31', min_quantity: '2', max_uses: '100', max_uses_per_email: '1',
    });
    assert.equal(res.statusCode, 303, res.body.slice(0, 500));
    const list = await manager.get(String(res.headers.location));
    for (const s of ['The promo code is created.', 'SOMMER25', '25 %', 'at most €10.00', 'Box office', '2030-06-01', '0 / 100', 'Switch off']) assert.ok(list.body.includes(s), s);
    const [row] = (await db().execute<{ id: number; channels: string[]; min_quantity: number }>(sql`select id, channels, min_quantity from promo_codes where code = 'SOMMER25'`)).rows;
    assert.deepEqual([row!.channels.sort(), row!.min_quantity], [['desk', 'shop'], 2]);
    const before = (await db().execute<{ n: number }>(sql`select count(*)::int n from promo_codes`)).rows[0]!.n;
    for (const [form, message] of [
      [{ code: 'SOMMER25', kind: 'amount', amount: '5' }, /a promo code SOMMER25 exists already/],
      [{ code: 'Herbst', kind: 'percent', percent: '150' }, /percent must be 1 to 100/],
      [{ code: 'x', kind: 'amount', amount: '' }, /code must be 3 to 40/],
      [{ code: 'Winter', kind: 'amount', amount: 'zehn' }, /Amount: please type a number/],
      [{ code: 'Winter', kind: 'percent', percent: '10', ticket_ids: '1, zwei' }, /Tickets \(numbers\): please type numbers/],
    ] as const) {
      const r = await manager.post('/console/promo-codes', { ...form, visit_from: '2031-01-01' });
      assert.equal(r.statusCode, 422, JSON.stringify(form));
      assert.match(r.body, message);
      assert.ok(r.body.includes(`value="${form.code}"`) && r.body.includes('value="2031-01-01"'), 'what was typed is kept');
      assert.match(r.body, new RegExp(`id="kind-${form.kind}"[^>]*checked`));
    }
    assert.equal((await db().execute<{ n: number }>(sql`select count(*)::int n from promo_codes`)).rows[0]!.n, before, 'nothing saved');
    const off = await manager.post(`/console/promo-codes/${row!.id}/active`, { active: '0' });
    assert.equal(off.statusCode, 303);
    assert.match((await manager.get(String(off.headers.location))).body, /The promo code is switched off/);
    assert.equal((await db().execute<{ active: boolean }>(sql`select active from promo_codes where id = ${row!.id}`)).rows[0]!.active, false);
    const order = await fx.t.request({ method: 'POST', url: '/api/v4/orders', token: fx.user, payload: { codes: ['SOMMER25'], items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 2, time: fx.at(900) } }] } });
    assert.equal(order.statusCode, 422);
    assert.match(order.body, /CODE_INVALID/, 'a code switched off is not valid');
    await manager.post(`/console/promo-codes/${row!.id}/active`, { active: '1' });
    assert.equal((await db().execute<{ active: boolean }>(sql`select active from promo_codes where id = ${row!.id}`)).rows[0]!.active, true);
    const de = await signIn(fx.t, fx.staff.admin);
    await de.post('/console/locale', { locale: 'de', back: '/console/promo-codes' });
    for (const s of ['Aktionscodes', 'Neuer Aktionscode', 'Verkaufswege', 'Ausschalten']) assert.ok((await de.get('/console/promo-codes')).body.includes(s), s);
  });
});

describe('gift-card reports', () => {
  test('outstanding value and movements of a range, each as CSV; a bad range refused in words', async () => {
    const admin = await signIn(fx.t, (await staffUser(fx.t, 'admin')).email);
    const card = await issue(7000);
    const [{ total }] = (await db().execute<{ total: number }>(sql`select sum(balance_cents)::int total from gift_cards where expires_at > now()`)).rows as [{ total: number }];
    const page = await admin.get('/console/reports/gift-cards');
    assert.equal(page.statusCode, 200);
    const shown = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(total / 100);
    assert.ok(page.body.includes(shown), `the outstanding total ${shown}`);
    assert.match(page.body, /issued/);
    const liability = await admin.get('/console/reports/gift-cards/liability.csv');
    assert.match(String(liability.headers['content-type']), /text\/csv/);
    assert.match(liability.body, /currency/);
    assert.match(liability.body, new RegExp(`"EUR";"\\d+";"${(total / 100).toFixed(2).replace('.', '[.,]')}"`));
    const moves = await admin.get('/console/reports/gift-cards/ledger.csv');
    assert.match(moves.body, /gift_card_id/);
    assert.ok(moves.body.includes(card.code.slice(-4)) && !moves.body.includes(card.code.slice(0, 8)), 'cards named by their last four only');
    const bad = await admin.get('/console/reports/gift-cards?from=2026-05-10&to=2026-05-01');
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /to must not be before from/);
    assert.equal((await manager.get('/console/reports/gift-cards')).statusCode, 403, 'instance-wide figures: admins only');
  });
});
