// The back office of the staff console in a real headless Chromium (Debian's, see console-support.ts,
// through playwright-core), under the console's strict CSP: a manager closes a day after the
// affected-orders preview and sees the day sheet change; opens the reports and downloads the CSV
// (bytes checked as German Excel needs them); an admin opens partners, a partner, and the audit
// log. axe-core finds no serious or critical violation on any of these pages. Screenshots go to
// docs/screenshots/console-*.png only with ATRIUM_UPDATE_SCREENSHOTS=1. Skipped with a message
// when Chromium is missing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { localDateOf } from '../../src/domain/time.ts';
import { partnerOfA } from '../console/backoffice.ts';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { PASSWORD } from '../console/support.ts';
import { launchChromium, noSeriousViolations, shot } from './console-support.ts';


let fx: ConsoleFixture;
let base = '';
before(async () => {
  fx = await consoleFixture();
  fx.t.clock.now = () => new Date();
  base = await fx.t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => fx.t.close());

async function signedIn(browser: Browser, email: string, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, locale: 'en-GB', timezoneId: 'Europe/Berlin', acceptDownloads: true });
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.url()}`));
  await page.goto(`${base}/console/login?lang=en`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/day$/);
  return page;
}

test('back office in Chromium: close a day with the preview, reports and CSV, partners, audit; axe', async (t) => {
  const order = await fx.order(fx.A, { surname: 'Sturmfest', quantity: 2 });
  await partnerOfA(fx);
  const browser = await launchChromium(t);
  if (!browser) return;
  const problems: string[] = [];
  try {
    const page = await signedIn(browser, fx.staff.manager, problems);
    await page.goto(`${base}/console/day?date=${fx.day}`);
    assert.equal(await page.getByText('Closed: Sturmwarnung').count(), 0);

    // Close the day: the preview names the order, then confirm with cancellation.
    await page.getByRole('link', { name: 'Schedules' }).click();
    await noSeriousViolations(page, 'schedules');
    await page.screenshot({ path: shot('schedules'), fullPage: true });
    await page.locator('#c-start').fill(fx.day);
    await page.locator('#c-reason').fill('Sturmwarnung');
    await page.getByRole('button', { name: 'Show affected orders' }).click();
    await page.getByText('1 order(s) with 2 visitor(s) fall in this period.').waitFor();
    assert.ok(await page.getByRole('link', { name: `Order ${order.id}` }).isVisible());
    await noSeriousViolations(page, 'closure preview');
    await page.screenshot({ path: shot('closure-preview'), fullPage: true });
    await page.getByLabel(/Cancel the affected items/).check();
    await page.getByRole('button', { name: 'Create closure' }).click();
    await page.getByText('The closure has been created and the affected items cancelled.').waitFor();
    const items = (await fx.t.database.db.execute<{ status: string }>(sql`select status from order_items where order_id = ${order.id}`)).rows;
    assert.deepEqual(items.map((i) => i.status), ['cancelled']);

    // The day sheet now shows the museum closed, with the reason.
    await page.goto(`${base}/console/day?date=${fx.day}`);
    await page.getByText('Closed: Sturmwarnung').first().waitFor();

    // Reports for today, and the CSV download: the cancelled order nets out; one more order for
    // the next day (2 × 14,00 € at 7 %) stays.
    const next = await fx.t.request({ method: 'POST', url: '/api/v4/orders', token: fx.user, payload: { finalize: true, items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 2, time: new Date(Date.parse(fx.at(660)) + 86_400_000).toISOString() } }] } });
    assert.equal(next.statusCode, 201, next.body);
    const today = localDateOf(new Date(), 'Europe/Berlin');
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.locator('#from').fill(today);
    await page.locator('#to').fill(today);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: 'Sales' }).waitFor();
    await noSeriousViolations(page, 'reports');
    await page.screenshot({ path: shot('reports'), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download sales as CSV' }).click()]);
    assert.equal(download.suggestedFilename(), `sales-day-${today}-${today}.csv`);
    const bytes = readFileSync((await download.path())!);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    assert.equal(lines[0], '"Day";"VAT rate %";"Quantity";"Net";"VAT";"Gross"');
    assert.equal(lines[1], `"${today}";"7";"2";"26,17";"1,83";"28,00"`, lines.join('|'));

    // An admin: partners, a partner's page, the audit log with the closure.
    const admin = await signedIn(browser, fx.staff.admin, problems);
    await admin.getByRole('link', { name: 'Partners' }).click();
    await noSeriousViolations(admin, 'partners');
    await admin.screenshot({ path: shot('partners'), fullPage: true });
    await admin.getByRole('link', { name: /^Partner A / }).first().click();
    await admin.getByRole('heading', { name: 'Tokens' }).waitFor();
    await noSeriousViolations(admin, 'partner');
    // A webhook: its secret shown once, then its deliveries page.
    await admin.locator('#w-url').fill('https://93.184.216.34/hook');
    await admin.getByLabel('order.created').check();
    await admin.getByRole('button', { name: 'Create webhook' }).click();
    const secret = await admin.locator('#secret').inputValue();
    assert.match(secret, /^whsec_/);
    await noSeriousViolations(admin, 'secret shown once');
    await admin.getByRole('link', { name: 'Saved – continue' }).click();
    assert.equal(await admin.getByText(secret).count(), 0, 'the secret is not shown again');
    await admin.getByRole('link', { name: 'https://93.184.216.34/hook' }).click();
    await admin.getByRole('button', { name: 'Send a test event' }).click();
    await admin.getByText('webhook.test').first().waitFor();
    await noSeriousViolations(admin, 'webhook deliveries');
    await admin.getByRole('link', { name: 'Audit log' }).click();
    await admin.getByRole('heading', { name: /^Closure created · Closure #\d+$/ }).first().waitFor();
    await noSeriousViolations(admin, 'audit log');
    await admin.screenshot({ path: shot('audit'), fullPage: true });
    // Staff users: a new user, the set-password link shown once, then listed.
    await admin.getByRole('link', { name: 'Staff', exact: true }).click();
    await noSeriousViolations(admin, 'staff users');
    await admin.locator('#s-name').fill('Erika Muster');
    await admin.locator('#s-email').fill('erika.browser@museum.example');
    await admin.locator('#s-role').selectOption('box_office');
    await admin.getByRole('button', { name: 'Create', exact: true }).click();
    assert.match(await admin.locator('#secret').inputValue(), /\/console\/set-password\/[A-Za-z0-9_-]{43}$/);
    await noSeriousViolations(admin, 'set-password link shown once');
    await admin.getByRole('link', { name: 'Saved – continue' }).click();
    await admin.getByRole('cell', { name: 'Erika Muster' }).waitFor();
    await admin.screenshot({ path: shot('staff'), fullPage: true });
    assert.deepEqual(problems, [], 'no console errors (CSP violations included)');
  } finally {
    await browser.close();
  }
});
