// What the console's browser tests share: Debian's Chromium (skipped visibly when missing),
// screenshot paths (docs/ only with ATRIUM_UPDATE_SCREENSHOTS=1), the axe-core check, and the box
// office's fixture and sale keystrokes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { serverRoot } from '../cli/cli.ts';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { zonedInstant } from '../../src/domain/time.ts';

/**
 * Debian's Chromium. Its headless shell (package chromium-headless-shell, the same browser engine
 * built without the windowed browser around it) takes less CPU per page than the full browser in
 * headless mode, so it is preferred where installed; the full browser serves otherwise.
 */
const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));
/** Flags for a machine without network access beyond loopback, and root without a sandbox. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const shot = (name: string) =>
  process.env.ATRIUM_UPDATE_SCREENSHOTS === '1' ? path.join(serverRoot, '../../docs/screenshots', `console-${name}.png`) : path.join(tmpdir(), `atrium-console-${name}.png`);

/** True after skipping the test with a message saying what to install, when there is no Chromium. */
export function skipWithoutChromium(t: TestContext): boolean {
  if (CHROMIUM) return false;
  t.skip('Chromium is missing: install the Debian package chromium-headless-shell (or chromium) to run the browser tests');
  return true;
}

/** Chromium (with `extraArgs` beside the usual flags), or undefined after skipping the test. */
export async function launchChromium(t: TestContext, extraArgs: string[] = []): Promise<Browser | undefined> {
  if (skipWithoutChromium(t)) return undefined;
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** axe-core in the page (evaluated through the DevTools protocol, which the CSP does not block). */
export async function noSeriousViolations(page: Page, what: string) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run();
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
  assert.deepEqual(found, [], `axe on ${what}`);
}

/**
 * A desktop page (1366 × 768, English, Berlin time) signed in to the console as `email`, and the
 * console and page errors it logs from then on, for the test to assert empty.
 */
export async function signedInPage(browser: Browser, base: string, email: string, password: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${base}/console/login?lang=en`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/day$/);
  return { page, problems };
}

/** The console fixture listening for Chromium, its clock at 11:00 (Berlin) on its sale day: the desk sells that day's later slots. */
export async function deskFixture(): Promise<{ fx: ConsoleFixture; base: string }> {
  const fx = await consoleFixture();
  const shift = zonedInstant(fx.day, 11 * 60, 'Europe/Berlin').getTime() - Date.now();
  fx.t.clock.now = () => new Date(Date.now() + shift);
  return { fx, base: await fx.t.app.listen({ host: '127.0.0.1', port: 0 }) };
}

/** From the cash given: Enter moves to the sell button, Enter there sells; waits for the sold notice. */
export async function sellByEnter(page: Page): Promise<void> {
  await page.keyboard.press('Enter');
  await page.waitForSelector('#sell:focus');
  await page.keyboard.press('Enter');
  await page.getByText(/^Sold: order/).first().waitFor();
}

/**
 * The id of the focused element once the page's autofocus has been applied, which Chromium does
 * after the page has loaded, not at once: waits up to 5 s for `expected`, then answers whatever
 * has the focus.
 */
export async function focusAfterLoad(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((id) => document.activeElement?.id === id, expected, { timeout: 5_000 }).catch(() => {});
  return page.evaluate(() => document.activeElement?.id ?? '');
}
