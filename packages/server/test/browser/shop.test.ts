// The visitor shop in a real headless Chromium under its strict CSP (a violation is a console
// error and fails the test): two time-slot tickets and a tour bought with the demo provider in
// German on a 360 px phone and in English on a desktop, a checkout by keyboard alone, and the
// sold-out and expired-cart messages. axe-core checks every shop page on the way: no serious or
// critical violation. Skipped with a message when Chromium is missing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ShopWorld } from '../shop/support.ts';
import { launchChromium, noSeriousViolations } from './console-support.ts';
import { DESKTOP, fitsWidth, listeningWorld, PHONE, shopPage, shopShot, tabTo } from './shop-support.ts';

let w: ShopWorld;
let base = '';
before(async () => {
  ({ w, base } = await listeningWorld());
});
after(() => w.t.close());

interface Words { add: string; cart: string; checkout: string; name: string; surname: string; email: string; consent: RegExp; continue: string; pay: RegExp; thanks: RegExp }
const DE: Words = { add: 'In den Warenkorb', cart: 'Warenkorb', checkout: 'Zur Kasse', name: 'Vorname', surname: 'Nachname', email: 'E-Mail (dorthin senden wir Ihre Tickets)', consent: /Ich akzeptiere/, continue: 'Weiter zur Übersicht', pay: /bezahlen$/, thanks: /Vielen Dank/ };
const EN: Words = { add: 'Add to cart', cart: 'Cart', checkout: 'Check out', name: 'First name', surname: 'Surname', email: 'E-mail (your tickets are sent here)', consent: /I accept/, continue: 'Continue to summary', pay: /^Pay /, thanks: /Thank you/ };

async function check(page: Page, what: string, wide: boolean, name?: string) {
  await noSeriousViolations(page, what);
  if (!wide) await fitsWidth(page, what);
  if (name) await page.screenshot({ path: shopShot(name), fullPage: true });
}

async function buy(page: Page, x: Words, wide: boolean, prefix: string) {
  await page.goto(`${base}/shop`);
  await check(page, 'home', wide, `${prefix}-home`);
  await page.locator(`a[href="/shop/tickets/${w.regular}"]`).click();
  await check(page, 'ticket calendar', wide);
  await page.goto(`${base}/shop/tickets/${w.regular}?date=${w.day}`);
  await check(page, 'ticket day', wide, `${prefix}-slots`);
  await page.locator(`#q_${w.regular}`).fill('1');
  await page.locator(`#q_${w.reduced}`).fill('1');
  await page.getByRole('button', { name: x.add }).click();
  await page.waitForURL(/\/shop\/cart$/);
  await page.goto(`${base}/shop/tours/${w.tourId}?date=${w.day}`);
  await check(page, 'tour day', wide);
  await page.locator('#quantity').fill('2');
  await page.getByRole('button', { name: x.add }).click();
  await page.waitForURL(/\/shop\/cart$/);
  await check(page, 'cart', wide, `${prefix}-cart`);
  await page.getByRole('link', { name: x.checkout }).click();
  await check(page, 'checkout', wide);
  await page.getByLabel(x.name).fill('Erika');
  await page.getByLabel(x.surname).fill('Mustermann');
  await page.getByLabel(x.email).fill('erika@example.org');
  await page.getByLabel(x.consent).check();
  await page.screenshot({ path: shopShot(`${prefix}-details`), fullPage: true });
  await page.getByRole('button', { name: x.continue }).click();
  await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
  await check(page, 'summary', wide, `${prefix}-summary`);
  if (x === EN) {
    // A gift card pays part; the provider's button then asks for the rest only.
    const staff = await w.t.token({ class: 'user' });
    const card = await w.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: staff, payload: { gift_card: { amount_cents: 1000 } } });
    assert.equal(card.statusCode, 201, card.body);
    await page.getByLabel('Gift card code').fill(card.json().gift_card.code);
    await page.getByRole('button', { name: 'Apply gift card' }).click();
    await page.getByText('Still to pay').waitFor();
    await check(page, 'summary with a gift card', wide, `${prefix}-giftcard`);
  }
  await page.getByRole('button', { name: x.pay }).click();
  await page.getByRole('button', { name: 'Pay (demo)' }).click();
  await page.getByRole('link', { name: 'Back to the shop' }).click();
  await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
  await assert.doesNotReject(page.getByText(x.thanks).waitFor());
  await check(page, 'confirmation', wide, `${prefix}-confirmation`);
}

test('German on a 360 px phone and English on a desktop: two time-slot tickets and a tour, demo payment', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    for (const [viewport, locale, words, prefix] of [[PHONE, 'de-DE', DE, 'de-phone'], [DESKTOP, 'en-GB', EN, 'en-desktop']] as const) {
      const { page, problems } = await shopPage(browser, viewport, locale);
      await buy(page, words, viewport === DESKTOP, prefix);
      assert.deepEqual(problems, [], `${prefix}: no CSP or script errors`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});

test('keyboard only: from the day page to the confirmation', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const { page, problems } = await shopPage(browser, DESKTOP, 'en-GB');
    await page.goto(`${base}/shop/tickets/${w.regular}?date=${w.day}&lang=en`);
    await tabTo(page, `#q_${w.regular}`);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/shop\/cart$/);
    await tabTo(page, 'a[href="/shop/checkout"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/shop\/checkout$/);
    for (const [id, text] of [['name', 'Kim'], ['surname', 'Keyboard'], ['email', 'kim@example.org']]) {
      await tabTo(page, `#${id}`);
      await page.keyboard.type(text!);
    }
    await tabTo(page, '#consent');
    await page.keyboard.press('Space');
    await tabTo(page, 'form.details button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
    await tabTo(page, 'form[action$="/pay"] button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/payments\/demo\//);
    await tabTo(page, 'button');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await tabTo(page, 'a');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/shop\/orders\/[\w-]+$/);
    await page.getByText(/Thank you/).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('sold-out and expired-cart messages, in words', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const { page } = await shopPage(browser, PHONE, 'en-GB');
    // A tour start someone else books meanwhile.
    await page.goto(`${base}/shop/tours/${w.tourId}?date=${w.day}&lang=en`);
    const start = await page.locator('input[name=start]').last().getAttribute('value');
    await page.locator('input[name=start]').last().check();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/shop\/cart$/);
    const token = await w.t.token({ class: 'user' });
    const sold = await w.t.request({ method: 'POST', url: '/api/v4/orders', token, payload: { items: [{ type: 'Tour', attributes: { id: w.tourId, quantity: 1, start_time: start, language_id: w.langs[0] } }], finalize: true } });
    assert.equal(sold.statusCode, 201, sold.body);
    await page.getByRole('link', { name: 'Check out' }).click();
    await page.getByLabel('First name').fill('Sam');
    await page.getByLabel('Surname').fill('Late');
    await page.getByLabel('E-mail (your tickets are sent here)').fill('sam@example.org');
    await page.getByLabel(/I accept/).check();
    await page.getByRole('button', { name: 'Continue to summary' }).click();
    await page.getByText(/Sold out: there are not enough places left/).waitFor();
    await check(page, 'sold out', false, 'en-phone-soldout');
    // Held tickets whose time runs out.
    const fresh = await shopPage(browser, PHONE, 'en-GB');
    await fresh.page.goto(`${base}/shop/tickets/${w.regular}?date=${w.day}&lang=en`);
    await fresh.page.getByRole('button', { name: 'Add to cart' }).click();
    await fresh.page.waitForURL(/\/shop\/cart$/);
    w.t.clock.now = () => new Date(Date.now() + 16 * 60_000);
    try {
      await fresh.page.reload();
      await fresh.page.getByText(/Your reservation has expired and the places were released/).waitFor();
      await check(fresh.page, 'expired cart', false, 'en-phone-expired');
    } finally {
      w.t.clock.now = () => new Date();
    }
  } finally {
    await browser.close();
  }
});
