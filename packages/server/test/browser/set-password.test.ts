// A set-password link in a real headless Chromium (Debian's, see console-support.ts, through
// playwright-core) under the console's strict CSP (any violation is a console error and fails the
// test): the page in the user's language, both fields, on to sign-in, sign in with the new
// password; a used link shows its clear page. axe-core checks each page: no serious or critical
// violation. Skipped with a message when Chromium is missing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { resetStaffPasswordWithLink } from '../../src/domain/staff/users.ts';
import { staffUser } from '../console/support.ts';
import { testApp } from '../helpers/app.ts';
import { launchChromium, noSeriousViolations, shot } from './console-support.ts';

const t = await testApp();
let base = '';
before(async () => {
  t.clock.now = () => new Date();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => t.close());

test('set a password through a link in Chromium, in German; axe on every page', async (tc) => {
  const user = await staffUser(t, 'box_office', [], 'kasse@museum.example');
  await t.database.db.execute(sql`update staff_users set locale = 'de' where id = ${user.id}`);
  const { link } = await resetStaffPasswordWithLink({ db: t.database.db, clock: t.clock }, { cli: true }, user.id);
  const browser = await launchChromium(tc);
  if (!browser) return;
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));

    await page.goto(`${base}/console/set-password/${link.token}`);
    await page.getByRole('heading', { name: 'Passwort festlegen' }).waitFor();
    await noSeriousViolations(page, 'set-password form');
    await page.screenshot({ path: shot('set-password') });
    await page.getByLabel('Neues Passwort', { exact: true }).fill('ein neues Passwort');
    await page.getByLabel('Neues Passwort wiederholen').fill('ein anderes Passwort');
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await page.getByText('Die beiden Eingaben stimmen nicht überein.').waitFor();
    await noSeriousViolations(page, 'set-password form with an error');
    await page.getByLabel('Neues Passwort', { exact: true }).fill('ein neues Passwort');
    await page.getByLabel('Neues Passwort wiederholen').fill('ein neues Passwort');
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await page.waitForURL(/\/console\/login\?lang=de&notice=passwordset$/);
    await page.getByText('Ihr Passwort ist gespeichert.').waitFor();
    await noSeriousViolations(page, 'sign-in after setting the password');
    await page.getByLabel('E-Mail').fill(user.email);
    await page.getByLabel('Passwort').fill('ein neues Passwort');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/console\/day$/);

    await page.goto(`${base}/console/set-password/${link.token}`);
    await page.getByText('Dieser Link gilt nicht (mehr)').waitFor();
    await noSeriousViolations(page, 'a used link');
    // The refused entry (422) and the used link (404) are answered as such; anything else is a fault.
    assert.deepEqual(problems.filter((p) => !/status of (404|422)/.test(p)), [], 'no CSP violation or script error');
  } finally {
    await browser.close();
  }
});
