// The box office in Chromium, by keyboard alone: a family (2 adults + 1 reduced) in one basket,
// paid in cash with the change shown; the keystrokes and clicks are counted and printed. Then a
// split payment (card + cash), a split of a gift card and the card terminal, the gift-card and
// promo-code pages, and a walk-in for the running hour (13:00–14:00 at 13:32, the server's clock
// set to that time and ticking). The sell button is in view at 1366x768 and 1024x768; axe on
// each page. Screenshots with ATRIUM_UPDATE_SCREENSHOTS=1.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { PASSWORD } from '../console/support.ts';
import { reducedTicket } from '../desk/support.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { focusAfterLoad, launchChromium, noSeriousViolations, shot, signedInPage } from './console-support.ts';

let fx: ConsoleFixture;
let base = '';
before(async () => {
  fx = await consoleFixture();
  // The sale day at 13:32, ticking: sessions and slots see one consistent time.
  const shift = zonedInstant(fx.day, 13 * 60 + 32, 'Europe/Berlin').getTime() - Date.now();
  fx.t.clock.now = () => new Date(Date.now() + shift);
  base = await fx.t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => fx.t.close());

test('the family sale by keyboard, a split payment, a partial cancellation and the cash closing', async (t) => {
  const reduced = await reducedTicket(fx);
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const { page, problems } = await signedInPage(browser, base, fx.staff.box_office, PASSWORD);

    await page.goto(`${base}/console/sale?date=${fx.day}`);
    let keys = 0;
    const clicks = 0;
    const press = async (k: string) => { keys += 1; await page.keyboard.press(k); };
    const type = async (s: string) => { for (const ch of s) await press(ch); };
    assert.equal(await focusAfterLoad(page, `q-T-${fx.A.ticketId}`), `q-T-${fx.A.ticketId}`, 'the first quantity has the focus');
    await type('2');
    await press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), `q-T-${reduced}`);
    await type('1');
    await press('Enter');
    await page.waitForSelector('#given:focus');
    assert.equal(await page.locator('#total').getAttribute('data-cents'), '3700');
    await noSeriousViolations(page, 'the basket');
    await page.screenshot({ path: shot('sale-basket') });
    for (const [w, h] of [[1366, 768], [1024, 768]] as const) {
      await page.setViewportSize({ width: w, height: h });
      const box = await page.locator('#sell').boundingBox();
      assert.ok(box && box.y + box.height <= h, `the sell button is in view at ${w}x${h} (bottom at ${box && box.y + box.height})`);
    }
    await type('50');
    assert.equal((await page.locator('#change').textContent())?.trim(), '€13.00', 'the change shows while typing');
    await press('Enter');
    await page.waitForSelector('#sell:focus');
    await page.screenshot({ path: shot('sale-change') });
    await press('Enter');
    await page.getByText(/^Sold: order/).waitFor();
    await noSeriousViolations(page, 'the sold sale');
    await page.screenshot({ path: shot('sale-sold') });
    console.log(`# family sale (2 adults + 1 reduced, cash 50, change 13): ${keys} keystrokes, ${clicks} clicks`);
    assert.ok(keys <= 25 || clicks <= 8);
    const [o] = (await fx.t.database.db.execute<{ total: number; n: number }>(sql`select o.total_price_cents total, count(p.id)::int n from orders o join payments p on p.order_id = o.id where o.id = (select max(id) from orders) group by o.id`)).rows;
    assert.deepEqual(o, { total: 3700, n: 1 });
    const [family] = (await fx.t.database.db.execute<{ order_id: number; item_id: number; unit: number }>(sql`select order_id, id as item_id, price_cents / quantity as unit from order_items where order_id = (select max(id) from orders) and ticket_id = ${fx.A.ticketId}`)).rows;

    // Split: 3 adults, 20 by card, the rest cash.
    await page.locator(`#q-T-${fx.A.ticketId}`).fill('3');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#given:focus');
    await page.getByText('Customer, part payment and delivery').click();
    await page.getByLabel('Part payment amount').fill('20');
    await page.locator('#given').fill('30');
    await page.locator('#sell').click();
    await page.getByText('Change: €8.00').first().waitFor();
    const pays = (await fx.t.database.db.execute<{ method: string; amount_cents: number }>(sql`select method, amount_cents from payments where order_id = (select max(id) from orders) order by method`)).rows;
    assert.deepEqual(pays, [{ method: 'card', amount_cents: 2000 }, { method: 'cash', amount_cents: 2200 }]);

    // Split: a gift card of 10.00 pays its balance, the card terminal the rest.
    const issued = await fx.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: fx.user, payload: { amount_cents: 1000 } });
    const code = issued.json().gift_card.code as string;
    await page.locator(`#q-T-${fx.A.ticketId}`).fill('2');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#given:focus');
    await page.getByLabel('Voucher code').fill(code);
    await page.getByLabel('Card', { exact: true }).check();
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByText('The gift card pays €10.00, the rest €18.00').waitFor();
    await noSeriousViolations(page, 'the basket with a gift card');
    await page.locator('#sell').click();
    await page.getByText(/^Sold: order/).waitFor();
    const split = (await fx.t.database.db.execute<{ provider: string; amount_cents: number }>(sql`select provider, amount_cents from payments where order_id = (select max(id) from orders) order by provider`)).rows;
    assert.deepEqual(split, [{ provider: 'desk', amount_cents: 1800 }, { provider: 'gift_card', amount_cents: 1000 }]);
    // The new pages: find the card, its ledger, the desk's card sale (code shown once), promo codes.
    await page.goto(`${base}/console/gift-cards?q=${code.slice(-4)}`);
    await noSeriousViolations(page, 'the gift-card search');
    await page.getByRole('link', { name: `Gift card …${code.slice(-4)}` }).first().click();
    await page.getByText('redeemed').waitFor();
    await noSeriousViolations(page, 'the gift card page');
    await page.goto(`${base}/console/sale/gift-card`);
    await noSeriousViolations(page, 'the gift card sale form');
    await page.getByLabel('€25.00').check();
    await page.getByLabel('Card', { exact: true }).check();
    await page.getByRole('button', { name: 'Sell the gift card' }).click();
    await page.locator('#gift-code').waitFor();
    await noSeriousViolations(page, 'the gift card sold');
    await page.goto(`${base}/console/promo-codes`);
    await noSeriousViolations(page, 'the promo codes');
    // A walk-in at 13:32 for the running hour: offered first, sold by keyboard.
    const q = await f.quota(fx.t.database.db, { museumId: fx.A.id, capacity: 20 });
    const hourly = (await f.ticket(fx.t.database.db, { museumId: fx.A.id, quotaIds: [q.id], entryDuration: 60, title: { de: 'Stundenkarte', en: 'Walk-in hour' } })).id;
    await page.goto(`${base}/console/sale?date=${fx.day}`);
    assert.equal(await page.locator('#time option:checked').textContent(), '13:00 (20 left)', 'the running hour is the first choice');
    await page.locator(`#q-T-${hourly}`).fill('1');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#given:focus');
    await page.getByRole('radio', { name: 'Card' }).check();
    await page.locator('#sell').press('Enter');
    await page.getByText(/^Sold: order/).waitFor();
    const [walkIn] = (await fx.t.database.db.execute<{ ticket_id: number; start_at: Date }>(sql`select ticket_id, start_at from order_items where order_id = (select max(id) from orders)`)).rows;
    assert.equal(walkIn!.ticket_id, hourly);
    assert.equal(new Date(walkIn!.start_at).toISOString(), fx.at(13 * 60));

    // A partial cancellation: one of the family's two adults. The refund is shown before anything
    // changes, and the cash is paid back.
    const unit = family!.unit;
    const money = (c: number) => `€${(c / 100).toFixed(2)}`;
    await page.goto(`${base}/console/orders/${family!.order_id}`);
    await page.locator(`#qty-${family!.item_id}`).fill('1');
    await page.getByRole('button', { name: 'Cancel the selected items…' }).click();
    assert.equal((await page.locator('#refund-amount').textContent())?.trim(), money(unit), 'the refund is shown before confirming');
    await noSeriousViolations(page, 'the cancellation with its refund');
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.waitForURL(/notice=cancelledrefunded/);
    const [refund] = (await fx.t.database.db.execute<{ amount_cents: number }>(sql`select r.amount_cents from refunds r join payments p on p.id = r.payment_id where p.order_id = ${family!.order_id}`)).rows;
    assert.equal(refund?.amount_cents, unit);

    // The cash closing of the day matches these sales: cash taken (37.00 + 22.00) less the adult
    // refunded, plus the float; counted exactly, the difference is nil.
    const expected = 10_000 + 3700 + 2200 - unit;
    await page.goto(`${base}/console/closing?date=${fx.day}`);
    await noSeriousViolations(page, 'the cash closing');
    await page.getByLabel('Opening float').fill('100');
    await page.getByLabel('Cash counted').fill((expected / 100).toFixed(2));
    await page.getByRole('button', { name: 'Close the day' }).click();
    await page.getByText('Difference').first().waitFor();
    const [closing] = (await fx.t.database.db.execute<{ expected_cash_cents: number; difference_cents: number }>(sql`select expected_cash_cents, difference_cents from cash_closings order by id desc limit 1`)).rows;
    assert.deepEqual(closing, { expected_cash_cents: expected, difference_cents: 0 });
    await noSeriousViolations(page, 'the closed day');
    await page.screenshot({ path: shot('closing') });
    assert.deepEqual(problems, [], 'no console errors (CSP violations included)');
  } finally {
    await browser.close();
  }
});
