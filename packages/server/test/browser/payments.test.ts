// The order's money in a real headless Chromium under the console's strict CSP: a manager opens
// a paid order, sees its payment, refunds part of it through the form, sees the refund listed,
// tries more than is left and reads why it was refused; then a refund the provider refused shows
// with its retry button, which makes it. The reconciliation report lists both. axe-core checks
// every page: no serious or critical violation. Skipped with a message when Chromium is missing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { failedRefund, paidOrder } from '../console/payments.ts';
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

const money = async (id: number) => (await fx.t.request({ method: 'GET', url: `/api/v4/orders/${id}/payments`, token: fx.user })).json();

test('payments on the order page, the refund form and the retry in Chromium; axe on every page', async (t) => {
  const paid = await paidOrder(fx);
  const stuck = await failedRefund(fx);
  const browser = await launchChromium(t);
  if (!browser) return;
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const problems: string[] = [];
    // The refused refund is answered 422 on purpose; Chromium logs that status as an error.
    page.on('console', (m) => m.type() === 'error' && !/status of 422/.test(m.text()) && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));

    await page.goto(`${base}/console/login?lang=en`);
    await page.getByLabel('Email').fill(fx.staff.manager);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/day$/);

    await page.goto(`${base}/console/orders/${paid.id}`);
    const payments = page.getByRole('table', { name: 'Payments' });
    assert.ok(await payments.getByRole('cell', { name: `desk-${paid.id}` }).isVisible(), 'the payment and its reference');
    await noSeriousViolations(page, 'order with a payment');

    await page.getByLabel('Amount (EUR)').fill('3,50');
    await page.getByLabel('Reason').fill('Kulanz');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('The money was refunded.').waitFor();
    const refunds = page.getByRole('table', { name: 'Refunds' });
    assert.ok(await refunds.getByRole('cell', { name: 'Kulanz' }).isVisible());
    await noSeriousViolations(page, 'order after a refund');
    await page.screenshot({ path: shot('order-payments'), fullPage: true });
    assert.deepEqual((await money(paid.id)).refunds.map((r: { amount_cents: number }) => r.amount_cents), [350]);

    // More than is left: refused in words, nothing changed.
    await page.getByLabel('Amount (EUR)').fill(String(paid.totalCents));
    await page.getByLabel('Reason').fill('zu viel');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('The refund was not made; nothing was changed.').waitFor();
    assert.ok(await page.getByText(/more than can still be refunded/).isVisible());
    await noSeriousViolations(page, 'refused refund');
    assert.equal((await money(paid.id)).refunds.length, 1);

    // A refund the provider refused: listed with its failure and a retry button.
    await page.goto(`${base}/console/orders/${stuck.orderId}`);
    assert.ok(await page.getByText('The refund could not be processed.').isVisible());
    await noSeriousViolations(page, 'order with a failed refund');
    await page.getByRole('button', { name: `Try again: refund ${stuck.refundId}` }).click();
    await page.getByText('The money was refunded.').waitFor();
    assert.equal(await page.getByRole('button', { name: `Try again: refund ${stuck.refundId}` }).count(), 0);
    assert.equal((await money(stuck.orderId)).refunds[0].state, 'done');

    await page.goto(`${base}/console/reports/payments`);
    assert.ok(await page.getByRole('link', { name: String(paid.id), exact: true }).first().isVisible());
    await noSeriousViolations(page, 'reconciliation report');
    await page.screenshot({ path: shot('payments-report'), fullPage: true });
    assert.deepEqual(problems, [], 'no CSP violation or script error');
  } finally {
    await browser.close();
  }
});
