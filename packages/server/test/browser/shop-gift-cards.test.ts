// A 50 € gift card bought in the shop in a real headless Chromium under the strict CSP (a
// violation is a console error and fails the test), in German on a 360 px phone: home, the
// gift-card page, details, summary, the demo provider, the confirmation with the card's PDF.
// axe-core checks every page on the way. Skipped with a message when Chromium is missing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ShopWorld } from '../shop/support.ts';
import { launchChromium, noSeriousViolations } from './console-support.ts';
import { fitsWidth, listeningWorld, PHONE, shopPage, shopShot } from './shop-support.ts';

let w: ShopWorld;
let base = '';
before(async () => {
  ({ w, base } = await listeningWorld());
});
after(() => w.t.close());

async function check(page: Page, what: string, name?: string) {
  await noSeriousViolations(page, what);
  await fitsWidth(page, what);
  if (name) await page.screenshot({ path: shopShot(name), fullPage: true });
}

test('German on a 360 px phone: a 50 € gift card with the demo provider, its PDF linked', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const { page, problems } = await shopPage(browser, PHONE, 'de-DE');
    await page.goto(`${base}/shop`);
    await page.getByRole('link', { name: 'Geschenkgutscheine kaufen' }).click();
    await page.waitForURL(/\/shop\/gift-cards$/);
    await check(page, 'gift-card page', 'de-phone-giftcards');
    // A bad free amount first: refused in words, the page keeps what was typed.
    await page.getByLabel('Anderer Betrag', { exact: true }).check();
    await page.getByLabel(/^Anderer Betrag in Euro/).fill('600');
    await page.getByRole('button', { name: 'Weiter zu Ihren Angaben' }).first().click();
    await page.getByText(/Betrag zwischen 5,00\s€ und 500,00\s€/).waitFor();
    await check(page, 'gift-card page with an error');
    await page.getByLabel('50,00 €').check();
    await page.getByLabel('Für (Name, freiwillig)').fill('Grace');
    await page.getByRole('button', { name: 'Weiter zu Ihren Angaben' }).first().click();
    await page.waitForURL(/\/shop\/gift-cards\/details$/);
    await check(page, 'gift-card details', 'de-phone-giftcard-details');
    await page.getByLabel('Vorname').fill('Erika');
    await page.getByLabel('Nachname').fill('Mustermann');
    await page.getByLabel('E-Mail (dorthin senden wir Ihre Gutscheine)').fill('erika@example.org');
    await page.getByLabel(/Ich akzeptiere/).check();
    await page.getByRole('button', { name: 'Weiter zur Übersicht' }).click();
    await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
    await page.getByText(/Wertgutschein über 50,00/).first().waitFor();
    await check(page, 'gift-card summary');
    await page.getByRole('button', { name: /bezahlen$/ }).click();
    await page.getByRole('button', { name: 'Pay (demo)' }).click();
    await page.getByRole('link', { name: 'Back to the shop' }).click();
    await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
    await page.getByText(/Vielen Dank/).waitFor();
    await check(page, 'gift-card confirmation', 'de-phone-giftcard-confirmation');
    const link = page.getByRole('link', { name: /^Wertgutschein …[0-9A-Z]{4} \(PDF\)$/ });
    const href = await link.getAttribute('href');
    assert.match(href ?? '', /^\/shop\/orders\/[\w-]+\/gift-cards\/\d+\.pdf$/);
    const pdf = await page.request.get(`${base}${href}`);
    assert.equal(pdf.status(), 200);
    assert.equal((await pdf.body()).subarray(0, 5).toString(), '%PDF-');
    // The refused amount is answered 422, which Chromium logs as a failed load; nothing else.
    assert.deepEqual(problems, ['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)'], 'no CSP or script errors');
    await page.close();
  } finally {
    await browser.close();
  }
});
