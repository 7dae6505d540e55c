// A single-purpose voucher bought and redeemed in the shop in a real headless Chromium under the
// strict CSP (a violation is a console error and fails the test), in English on a desktop: the
// voucher form on the gift-card page, details, the demo provider, the voucher's PDF (its code read
// with pdftotext, as a buyer reads it); the code typed for another ticket is refused on the form;
// then two admissions of that ticket with the code in the details step's code field: the summary
// takes one admission off as the voucher's discount, the rest is paid and the voucher is redeemed.
// axe-core checks every page on the way.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { hasPdfToText, pdfPages, PDFTOTEXT_MISSING, squash } from '../helpers/pdftext.ts';
import type { ShopWorld } from '../shop/support.ts';
import { launchChromium, noSeriousViolations } from './console-support.ts';
import { DESKTOP, listeningWorld, shopPage } from './shop-support.ts';

let w: ShopWorld;
let base = '';
before(async () => {
  ({ w, base } = await listeningWorld());
});
after(() => w.t.close());

const euro = (cents: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(cents / 100);

async function details(page: Page, email: string) {
  await page.getByLabel('First name').fill('Erika');
  await page.getByLabel('Surname').fill('Mustermann');
  await page.getByLabel(email).fill('erika@example.org');
  await page.getByLabel(/I accept/).check();
}

/** The demo provider's page and the way back to the shop's confirmation. */
async function payDemo(page: Page) {
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.getByRole('button', { name: 'Pay (demo)' }).click();
  await page.getByRole('link', { name: 'Back to the shop' }).click();
  await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
  await page.getByText(/Thank you|is paid/).first().waitFor();
}

test('a voucher for one admission bought in the shop, then redeemed there for that ticket', { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  const db = w.t.database.db;
  const price = (await db.execute<{ p: number }>(sql`select price_cents as p from tickets where id = ${w.regular}`)).rows[0]!.p;
  assert.ok(price > 0);
  try {
    const { page, problems } = await shopPage(browser, DESKTOP, 'en-GB');
    // Buying: the voucher form (not the gift-card form) on the gift-card page.
    await page.goto(`${base}/shop/gift-cards`);
    await noSeriousViolations(page, 'gift-card page');
    const form = page.locator('form:has(input[name=kind][value=voucher])');
    await form.locator(`#v_${w.regular}`).fill('1');
    await form.getByRole('button', { name: 'Continue to your details' }).click();
    await page.waitForURL(/\/shop\/gift-cards\/details$/);
    await page.getByText('Voucher: Timed regular').first().waitFor();
    await noSeriousViolations(page, 'voucher details');
    await details(page, 'E-mail (your gift cards are sent here)');
    await page.getByRole('button', { name: 'Continue to summary' }).click();
    await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
    await noSeriousViolations(page, 'voucher summary');
    assert.equal((await page.getByRole('button', { name: /^Pay / }).textContent())?.trim(), `Pay ${euro(price)}`, 'the voucher costs one admission');
    await payDemo(page);
    await noSeriousViolations(page, 'voucher confirmation');

    // The code is on the voucher's PDF only: fetched with the page's own cookies, read as text.
    const link = page.getByRole('link', { name: /^Admission voucher …[0-9A-Z]{4} \(PDF\)$/ });
    const href = (await link.getAttribute('href')) ?? '';
    const [, voucherId] = /^\/shop\/orders\/[\w-]+\/vouchers\/(\d+)\.pdf$/.exec(href) ?? [];
    assert.ok(voucherId, href);
    const pdf = await page.request.get(`${base}${href}`);
    assert.equal(pdf.status(), 200);
    const text = squash(pdfPages(await pdf.body())!.join('\n'));
    const printed = /\b([0-9A-Z]{4}(?:-[0-9A-Z]{4}){4})\b/.exec(text)?.[1];
    assert.ok(printed, text);
    const last4 = printed.slice(-4);
    assert.equal((await link.textContent())?.trim(), `Admission voucher …${last4} (PDF)`);

    // Typed for another ticket (a second visitor with only a reduced admission): refused on the
    // form in words, with what was typed kept; nothing is redeemed.
    const other = await shopPage(browser, DESKTOP, 'en-GB');
    await other.page.goto(`${base}/shop/tickets/${w.regular}?date=${w.day}`);
    await other.page.locator(`#q_${w.regular}`).fill('0');
    await other.page.locator(`#q_${w.reduced}`).fill('1');
    await other.page.getByRole('button', { name: 'Add to cart' }).click();
    await other.page.waitForURL(/\/shop\/cart$/);
    await other.page.getByRole('link', { name: 'Check out' }).click();
    await details(other.page, 'E-mail (your tickets are sent here)');
    await other.page.getByLabel('Promo code (optional)').fill(printed);
    await other.page.getByRole('button', { name: 'Continue to summary' }).click();
    await other.page.getByRole('alert').getByText('This voucher is for another ticket: put that ticket in your cart to redeem it.').waitFor();
    assert.equal(await other.page.getByLabel('Promo code (optional)').inputValue(), printed);
    await noSeriousViolations(other.page, 'checkout with a voucher for another ticket');
    assert.deepEqual(other.problems, ['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)'], 'the refusal only');
    await other.page.close();

    // Redeeming: two admissions of that ticket, the code typed as printed in the details step.
    await page.goto(`${base}/shop/tickets/${w.regular}?date=${w.day}`);
    await noSeriousViolations(page, 'ticket day');
    await page.locator(`#q_${w.regular}`).fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/shop\/cart$/);
    await noSeriousViolations(page, 'cart');
    await page.getByRole('link', { name: 'Check out' }).click();
    await page.waitForURL(/\/shop\/checkout$/);
    await details(page, 'E-mail (your tickets are sent here)');
    await page.getByLabel('Promo code (optional)').fill(printed.toLowerCase());
    await noSeriousViolations(page, 'checkout with a voucher code');
    await page.getByRole('button', { name: 'Continue to summary' }).click();
    await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
    const discount = page.locator('tr.discount');
    assert.equal(await discount.count(), 1, 'one discount line');
    assert.match(squash(await discount.innerText()), new RegExp(`^Admission voucher …${last4}.*−${euro(price).replace('.', '\\.')}`), 'named as a voucher, not as a promo code');
    assert.equal(squash(await page.locator('tr.gross').first().innerText()).trim(), `Total ${euro(price)}`, 'two admissions less one');
    await noSeriousViolations(page, 'summary with a voucher');
    await payDemo(page);
    await noSeriousViolations(page, 'confirmation');

    const token = page.url().split('/').pop()!;
    const order = (await db.execute<{ id: number; status: string; total: number }>(sql`select id, status, total_price_cents as total from orders where token = ${token}`)).rows[0]!;
    assert.deepEqual([order.status, order.total], ['finalized', price]);
    const staff = await w.t.token({ class: 'user' });
    const v = await w.t.request({ method: 'GET', url: `/api/v4/vouchers/${voucherId}`, token: staff });
    assert.equal(v.statusCode, 200, v.body);
    assert.equal(v.json().voucher.status, 'redeemed');
    const took = (await db.execute<{ amount: number }>(sql`select amount_cents as amount from order_discounts where order_id = ${order.id}`)).rows;
    assert.deepEqual(took.map((r) => r.amount), [price]);
    assert.deepEqual(problems, [], 'no CSP or script errors');
    await page.close();
  } finally {
    await browser.close();
  }
});
