// A gift card in the box office's basket, in Chromium by keyboard alone: one adult ticket, then
// the 50 € value button reached by Tab, the cash given typed, sold with the change shown; the
// card is an order of its own, issued with its balance, and its PDF is linked. axe on each page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { ConsoleFixture } from '../console/fixture.ts';
import { PASSWORD } from '../console/support.ts';
import { deskFixture, focusAfterLoad, launchChromium, noSeriousViolations, sellByEnter, shot, signedInPage } from './console-support.ts';

let fx: ConsoleFixture;
let base = '';
before(async () => ({ fx, base } = await deskFixture()));
after(() => fx.t.close());

test('a 50 € gift card joins the basket by keyboard and is sold for cash with change', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const { page, problems } = await signedInPage(browser, base, fx.staff.box_office, PASSWORD);
    await page.goto(`${base}/console/sale?date=${fx.day}`);
    const active = () => page.evaluate(() => document.activeElement?.id ?? '');
    assert.equal(await focusAfterLoad(page, `q-T-${fx.A.ticketId}`), `q-T-${fx.A.ticketId}`, 'the first quantity has the focus');
    await page.keyboard.press('1');
    // Tab on to the 50 € button (after the offer and the Add button), then Enter.
    for (let n = 0; n < 40 && (await active()) !== 'card-5000'; n += 1) await page.keyboard.press('Tab');
    assert.equal(await active(), 'card-5000', 'the 50 € button is reachable by Tab');
    assert.equal(await page.locator('#card-5000').textContent(), 'Gift card €50.00');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#given:focus');
    assert.equal(await page.locator('#total').getAttribute('data-cents'), '6400', 'the typed ticket (14.00) and the card (50.00)');
    await page.getByText('1 × Gift card €50.00 (EN)').waitFor();
    await noSeriousViolations(page, 'the basket with a gift card');
    await page.screenshot({ path: shot('sale-gift-card-basket') });
    await page.keyboard.type('100');
    assert.equal((await page.locator('#change').textContent())?.trim(), '€36.00', 'the change over the whole sale while typing');
    await sellByEnter(page);
    await page.getByText('Change: €36.00').first().waitFor();
    const link = page.getByRole('link', { name: /^Print gift card …/ });
    assert.equal(await link.count(), 1, 'the card PDF is linked');
    await noSeriousViolations(page, 'the sold notice of two orders');
    await page.screenshot({ path: shot('sale-gift-card-sold') });
    const orders = (await fx.t.database.db.execute<{ types: string; paid: number; total: number }>(sql`
      select string_agg(distinct i.type, ',') types, o.total_price_cents total,
             (select sum(p.amount_cents)::int from payments p where p.order_id = o.id and p.method = 'cash') paid
        from orders o join order_items i on i.order_id = o.id where o.staff_user_id is not null group by o.id order by o.id`)).rows;
    assert.deepEqual(orders, [{ types: 'Ticket', total: 1400, paid: 1400 }, { types: 'GiftCard', total: 5000, paid: 5000 }]);
    const [card] = (await fx.t.database.db.execute<{ balance_cents: number }>(sql`select balance_cents from gift_cards where order_item_id is not null`)).rows;
    assert.equal(card?.balance_cents, 5000);
    assert.deepEqual(problems, [], 'no console errors (CSP violations included)');
  } finally {
    await browser.close();
  }
});
