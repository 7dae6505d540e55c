// What the shop's browser tests share: a listening shop world (real clock, the demo provider
// pointed at the listening address), Chromium pages that record CSP and script errors, the
// screenshot paths (docs/screenshots/shop/ only with ATRIUM_UPDATE_SCREENSHOTS=1) and keyboard
// helpers.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serverRoot } from '../cli/cli.ts';
import { shopWorld, type ShopWorld } from '../shop/support.ts';

export const shopShot = (name: string) =>
  process.env.ATRIUM_UPDATE_SCREENSHOTS === '1' ? path.join(serverRoot, '../../docs/screenshots/shop', `${name}.png`) : path.join(tmpdir(), `atrium-shop-${name}.png`);

export async function listeningWorld(): Promise<{ w: ShopWorld; base: string }> {
  const w = await shopWorld();
  w.t.clock.now = () => new Date();
  const base = await w.t.app.listen({ host: '127.0.0.1', port: 0 });
  // The demo provider (built on first use) sends the visitor back to this address.
  w.t.config.payments.publicUrl = base;
  return { w, base };
}

export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 900 };

export async function shopPage(browser: Browser, viewport: { width: number; height: number }, locale: string) {
  const page = await browser.newPage({ viewport, locale, timezoneId: 'Europe/Berlin' });
  // The demo provider's page (not the shop's) has no icon link; Chromium would ask for one.
  await page.route('**/favicon.ico', (r) => r.fulfill({ status: 204, body: '' }));
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  return { page, problems };
}

/** Presses Tab until the focused element matches `selector` (at most 80 times). */
export async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  assert.fail(`Tab never reached ${selector}`);
}

/** No horizontal scrolling at this width (mobile first). */
export async function fitsWidth(page: Page, what: string) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 1, `${what} scrolls sideways by ${over}px`);
}
