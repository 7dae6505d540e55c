// The manage-booking page in a real headless Chromium (playwright-core, Debian's chromium): a
// visitor opens the link, cancels one booking through the confirmation page (the refund shown
// first, then refunded) and moves another to a free slot, and a tour to another start; every page is axe clean (no serious
// or critical violations) under the page's own strict CSP. Skipped with a message without Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, noSeriousViolations } from './console-support.ts';
import { shopWorld, type ShopWorld } from '../shop/manage-support.ts';
import * as f from '../helpers/factories.ts';
import { issueManageLink } from '../../src/domain/shop/manageLink.ts';

let w: ShopWorld;
let base: string;
before(async () => {
  w = await shopWorld();
  base = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => w.t.close());

async function withPage<T>(browser: Browser, run: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    const out = await run(page);
    assert.deepEqual(errors.filter((e) => /Content Security Policy/i.test(e)), [], 'no CSP violations');
    return out;
  } finally {
    await context.close();
  }
}

test('cancel with refund, and move to another slot, in a browser', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const paid = await w.paidOrder(1, 600);
    await withPage(browser, async (page) => {
      await page.goto(`${base}/shop/manage/${paid.token}`);
      await page.getByRole('heading', { name: `Your booking ${paid.id}` }).waitFor();
      await noSeriousViolations(page, 'the manage page');
      await page.getByRole('link', { name: 'Cancel', exact: true }).click();
      await page.getByRole('heading', { name: 'Confirm the cancellation' }).waitFor();
      assert.match(await page.locator('main').innerText(), /€14\.00 will be refunded/);
      await noSeriousViolations(page, 'the cancel confirmation');
      await page.getByRole('button', { name: 'Yes, cancel for good' }).click();
      await page.getByRole('status').waitFor();
      assert.match(await page.getByRole('status').innerText(), /Cancelled\. Refunded: €14\.00/);
    });
    assert.equal((await w.order(paid.id)).status, 'cancelled');
    assert.equal((await w.payments(paid.id)).refunds[0].state, 'done');

    const other = await w.paidOrder(1, 600);
    const eleven = w.at(660).toISOString();
    await withPage(browser, async (page) => {
      await page.goto(`${base}/shop/manage/${other.token}`);
      await page.getByRole('link', { name: 'Change time' }).click();
      await page.getByRole('heading', { name: 'Choose another time' }).waitFor();
      await noSeriousViolations(page, 'the move page');
      await page.locator(`input[type=radio][value="${eleven}"]`).check();
      await page.getByRole('button', { name: 'Move to this time' }).click();
      await page.getByRole('status').waitFor();
      assert.match(await page.getByRole('status').innerText(), /Moved/);
      await noSeriousViolations(page, 'the moved booking');
    });
    const moved = (await w.order(other.id)).items[0];
    assert.equal(new Date(moved.attributes.start_time).toISOString(), eleven);

    // A tour moves the same way, to another free start in its language.
    const db = w.t.database.db;
    const lang = await f.language(db, { code: 'it', name: 'Italiano' });
    const tour = await f.tour(db, { museumId: w.museumId, languageIds: [lang.id], minPersons: 1, maxPersons: 10, windowStart: 600, windowEnd: 960, step: 60 });
    const made = await w.t.request({ method: 'POST', url: '/api/v4/orders', token: w.staff, payload: { items: [{ type: 'Tour', attributes: { id: tour.id, quantity: 3, start_time: w.at(600).toISOString(), language_id: lang.id } }] } });
    assert.equal(made.statusCode, 201, made.body);
    const o = made.json().order;
    await w.t.request({ method: 'POST', url: `/api/v4/orders/${o.id}/payments`, token: w.staff, payload: { payment: { provider: 'desk', amount_cents: o.total_price_cents, method: 'cash' } } });
    const link = await issueManageLink({ db, clock: w.t.clock }, o.id);
    const noon = w.at(720).toISOString();
    await withPage(browser, async (page) => {
      await page.goto(`${base}/shop/manage/${link}`);
      await page.getByRole('link', { name: 'Change time' }).click();
      await page.locator(`input[type=radio][value="${noon}"]`).check();
      await page.getByRole('button', { name: 'Move to this time' }).click();
      await page.getByRole('status').waitFor();
      await noSeriousViolations(page, 'the moved tour');
    });
    assert.equal(new Date((await w.order(o.id)).items[0].attributes.start_time).toISOString(), noon);
  } finally {
    await browser.close();
  }
});
