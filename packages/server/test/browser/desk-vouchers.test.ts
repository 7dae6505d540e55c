// A single-purpose voucher in the box office's basket, in Chromium by keyboard alone: the voucher
// quantity of the museum's ticket reached by Tab, added with Enter, the cash given typed and sold
// with the change shown. The voucher is issued with the order (valid, naming its line), its PDF is
// linked on the sold notice and carries the code, and that code, typed into the next basket's code
// field with a promo code, takes one admission off the sale and the promo code its share of the
// rest. axe on each page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { ConsoleFixture } from '../console/fixture.ts';
import { PASSWORD } from '../console/support.ts';
import { hasPdfToText, pdfPages, PDFTOTEXT_MISSING, squash } from '../helpers/pdftext.ts';
import { deskFixture, focusAfterLoad, launchChromium, noSeriousViolations, sellByEnter, shot, signedInPage } from './console-support.ts';

let fx: ConsoleFixture;
let base = '';
before(async () => ({ fx, base } = await deskFixture()));
after(() => fx.t.close());

test('a voucher for one admission joins the basket by keyboard and is sold for cash', { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  const db = fx.t.database.db;
  const price = (await db.execute<{ p: number }>(sql`select price_cents as p from tickets where id = ${fx.A.ticketId}`)).rows[0]!.p;
  try {
    const { page, problems } = await signedInPage(browser, base, fx.staff.box_office, PASSWORD);
    await page.goto(`${base}/console/sale?date=${fx.day}`);
    await noSeriousViolations(page, 'the empty basket');
    const active = () => page.evaluate(() => document.activeElement?.id ?? '');
    assert.equal(await focusAfterLoad(page, `q-T-${fx.A.ticketId}`), `q-T-${fx.A.ticketId}`, 'the first quantity has the focus');
    const field = `q-V-${fx.A.ticketId}`;
    for (let n = 0; n < 60 && (await active()) !== field; n += 1) await page.keyboard.press('Tab');
    assert.equal(await active(), field, 'the voucher quantity is reachable by Tab');
    await page.keyboard.press('1');
    // Enter in a field presses the form's first submit button: Add.
    await page.keyboard.press('Enter');
    await page.waitForSelector('#given:focus');
    assert.equal(await page.locator('#total').getAttribute('data-cents'), String(price), 'one admission');
    await page.getByText(/^1 × Admission voucher /).waitFor();
    await noSeriousViolations(page, 'the basket with a voucher');
    await page.keyboard.type('20');
    await sellByEnter(page);
    const change = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format((2000 - price) / 100);
    await page.getByText(`Change: ${change}`).first().waitFor();
    const link = page.getByRole('link', { name: /^Print admission voucher …[0-9A-Z]{4} \(PDF\)$/ });
    assert.equal(await link.count(), 1, 'the voucher PDF is linked');
    await noSeriousViolations(page, 'the sold notice');

    const sold = (await db.execute<{ id: number; types: string; total: number; paid: number }>(sql`
      select o.id, string_agg(distinct i.type, ',') types, o.total_price_cents total,
             (select sum(p.amount_cents)::int from payments p where p.order_id = o.id and p.method = 'cash') paid
        from orders o join order_items i on i.order_id = o.id where o.staff_user_id is not null group by o.id order by o.id`)).rows;
    assert.deepEqual(sold.map(({ types, total, paid }) => ({ types, total, paid })), [{ types: 'Voucher', total: price, paid: price }]);
    const issued = (await db.execute<{ id: number }>(sql`
      select v.id from single_purpose_vouchers v join order_items i on i.id = v.order_item_id where i.order_id = ${sold[0]!.id}`)).rows;
    assert.equal(issued.length, 1, 'one voucher issued with the order');
    const staffView = async () => (await fx.t.request({ method: 'GET', url: `/api/v4/vouchers/${issued[0]!.id}`, token: fx.user })).json().voucher;
    const before = await staffView();
    assert.deepEqual([before.status, before.ticket_id, before.price_cents], ['valid', fx.A.ticketId, price]);

    // The PDF carries the code; the code takes one admission of the ticket off a later order.
    const pdf = await page.request.get(`${base}${await link.getAttribute('href')}`);
    assert.equal(pdf.status(), 200);
    const text = squash(pdfPages(await pdf.body())!.join('\n'));
    const code = /\b([0-9A-Z]{4}(?:-[0-9A-Z]{4}){4})\b/.exec(text)?.[1];
    assert.ok(code, text);
    // Redeemed at the box office, by keyboard: two admissions, the voucher and a promo code typed
    // into the code field (Enter adds it), the total shown is what the sale charges.
    const promo = await fx.t.request({ method: 'POST', url: '/api/v4/promo_codes', token: fx.user, payload: { code: 'DESK20', kind: 'percent', percent: 20, channels: ['desk'] } });
    assert.equal(promo.statusCode, 201, promo.body);
    await page.goto(`${base}/console/sale?date=${fx.day}`);
    assert.equal(await focusAfterLoad(page, `q-T-${fx.A.ticketId}`), `q-T-${fx.A.ticketId}`);
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#given:focus');
    for (const typed of [code.toLowerCase(), 'desk20']) {
      for (let n = 0; n < 30 && (await active()) !== 'code_new'; n += 1) await page.keyboard.press('Tab');
      assert.equal(await active(), 'code_new', 'the code field is reachable by Tab');
      await page.keyboard.type(typed);
      await page.keyboard.press('Enter');
      await page.waitForSelector('#given:focus');
    }
    const last4 = code.slice(-4);
    await page.getByText(`Code …${last4}`).waitFor();
    await page.getByText('Code DESK20').waitFor();
    const expected = Math.round((2 * price - price) * 0.8);
    assert.equal(await page.locator('#total').getAttribute('data-cents'), String(expected), 'one admission free, 20 % off the other');
    await noSeriousViolations(page, 'the basket with a voucher and a promo code');
    await page.screenshot({ path: shot('sale-codes-basket') });
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.screenshot({ path: shot('sale-codes-basket-tablet'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.keyboard.type('20');
    await sellByEnter(page);
    const [redeemedBy] = (await db.execute<{ total: number; uses: number }>(sql`
      select o.total_price_cents total, (select uses from promo_codes where code = 'DESK20') uses
        from single_purpose_vouchers v join orders o on o.id = v.order_id where v.id = ${issued[0]!.id}`)).rows;
    assert.deepEqual(redeemedBy, { total: expected, uses: 1 }, 'the sale that redeemed the voucher charged the basket\'s total');
    assert.equal((await staffView()).status, 'redeemed');
    assert.deepEqual(problems, [], 'no console errors (CSP violations included)');
  } finally {
    await browser.close();
  }
});
