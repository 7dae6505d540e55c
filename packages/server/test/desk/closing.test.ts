// The cash closing matches the day's desk sales: per payment method (a cash sale, a card + cash
// split, an invoice sale), VAT per rate with a grand total, the drawer (float + cash) against the
// count; closed once, immutable in the database, as CSV and PDF.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from '../console/fixture.ts';
import { signIn, type Browser } from '../console/support.ts';
import { localDateOf } from '../../src/domain/time.ts';
import { keyOf } from './support.ts';

let fx: ConsoleFixture;
before(async () => (fx = await consoleFixture()));
after(() => fx.t.close());

async function sell(b: Browser, qty: number, extra: Record<string, string>) {
  const page = await b.get(`/console/sale?date=${fx.day}`);
  const res = await b.post('/console/sale', { key: keyOf(page.body), date: fx.day, line: `T:${fx.A.ticketId}:${fx.at(720)}:${qty}`, op: 'sell', delivery: 'print', ...extra });
  assert.equal(res.statusCode, 303, res.body.slice(res.body.indexOf('role="alert"'), res.body.indexOf('role="alert"') + 300));
}

test('a cash closing that matches the sales, closed once and unchangeable', async () => {
  const b = await signIn(fx.t, fx.staff.box_office);
  await sell(b, 2, { payment: 'cash', given: '50' }); // 28,00 cash
  await sell(b, 3, { payment: 'cash', part_method: 'card', part_amount: '20' }); // 42,00: 20 card + 22 cash
  await sell(b, 1, { payment: 'invoice' }); // 14,00 invoice
  // Another cashier's sale is not in this drawer.
  await sell(await signIn(fx.t, fx.staff.manager), 1, { payment: 'cash' });
  const today = localDateOf(new Date(), 'Europe/Berlin');
  const page = await b.get(`/console/closing?date=${today}`);
  assert.equal(page.statusCode, 200);
  const cells = (label: string) => new RegExp(`<th scope="row">${label}</th>(.*?)</tr>`).exec(page.body)?.[1]?.match(/€[\d.,]+/g);
  assert.deepEqual(cells('Sales'), ['€50.00', '€20.00', '€14.00', '€84.00']);
  assert.match(page.body, /<td>7 %<\/td><td class="num">€78\.50<\/td><td class="num">€5\.50<\/td><td class="num">€84\.00<\/td>/);
  const closed = await b.post('/console/closing', { date: today, float: '100', counted: '149,50' });
  assert.equal(closed.statusCode, 303, closed.body.slice(closed.body.indexOf('role="alert"'), closed.body.indexOf('role="alert"') + 300));
  const id = Number(/closing\/(\d+)/.exec(String(closed.headers.location))![1]);
  const db = fx.t.database.db;
  const [row] = (await db.execute<{ expected_cash_cents: number; counted_cash_cents: number; difference_cents: number }>(sql`select expected_cash_cents, counted_cash_cents, difference_cents from cash_closings where id = ${id}`)).rows;
  assert.deepEqual(row, { expected_cash_cents: 15000, counted_cash_cents: 14950, difference_cents: -50 });
  const csv = await b.get(`/console/closing/${id}/csv`);
  assert.equal(csv.statusCode, 200);
  assert.match(csv.body, /"Sales";"Total";"84,00"/);
  assert.match(csv.body, /"Difference";"";"-0,50"/);
  assert.match(csv.body, /"Sales channel";"Box office";""/, 'the channel as the desk says it');
  assert.match(page.body, /Sales channel: Box office/);
  // The same name in the sales report and its CSV, never the console's technical account; an
  // order through the API stays apart under its own name.
  await fx.order(fx.A);
  const manager = await signIn(fx.t, fx.staff.manager);
  const report = await manager.get(`/console/reports?from=${today}&to=${today}&by=channel`);
  assert.match(report.body, />Box office</);
  assert.match(report.body, />Own systems \(API\): /);
  assert.doesNotMatch(report.body, /\((api|resellershop)\)/);
  await manager.post('/console/locale', { locale: 'de', back: '/console/reports' });
  const reportCsv = await manager.get(`/console/reports/sales.csv?from=${today}&to=${today}&by=channel`);
  assert.match(reportCsv.body, /\r\n"Kasse";"7";"7";"91,58";"6,42";"98,00"/, "both cashiers' seven tickets, one line");
  const pdf = await b.get(`/console/closing/${id}/pdf`);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
  // Closed once: a second closing of the day is refused on the form, and the row cannot change.
  const again = await b.post('/console/closing', { date: today, float: '0', counted: '0' });
  assert.equal(again.statusCode, 422, 'refused, and the page says the day is closed');
  assert.match(again.body, /This day is closed/);
  for (const stmt of [`update cash_closings set counted_cash_cents = 15000, difference_cents = 0 where id = ${id}`, `delete from cash_closings where id = ${id}`, 'truncate cash_closings']) {
    await assert.rejects(db.execute(sql.raw(stmt)), (e: Error & { cause?: Error }) => /cannot be changed/.test(String(e.cause?.message ?? e.message)), stmt);
  }
  // Control: the trigger is what refuses (an ordinary table row would change).
  await db.execute(sql`create temp table closing_control as select * from cash_closings where id = ${id}`);
  await db.execute(sql`update closing_control set counted_cash_cents = 1`);
});
