// The reports and audit-log pages over HTTP as a signed-in browser: figures from orders placed
// through the API, the CSV download, bad ranges on the form, hostile names escaped, other
// museums' ids "not found", and roles that may not see reports refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { tickets } from '../../src/db/schema/index.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { reportFixture, type ReportFixture } from '../reports/support.ts';
import { signIn, staffUser, type Browser } from './support.ts';

const t = await testApp();
after(() => t.close());
let x: ReportFixture;
let manager: Browser;
const today = f.localDate(0);

before(async () => {
  x = await reportFixture(t);
  await t.database.db.update(tickets).set({ title: { de: '<script>alert(1)</script>', en: '<script>alert(1)</script>' } }).where(eq(tickets.id, x.t19));
  const user = await t.token({ class: 'user' });
  const res = await t.request({
    method: 'POST', url: '/api/v4/orders', token: user,
    payload: { finalize: true, items: [{ type: 'Ticket', attributes: { id: x.t19, quantity: 3, time: x.visit(600) } }] },
  });
  assert.equal(res.statusCode, 201, res.body);
  manager = await signIn(t, (await staffUser(t, 'manager', [x.museumA])).email);
});

test('the reports page shows net, VAT and gross; hostile product names are escaped', async () => {
  const res = await manager.get(`/console/reports?from=${today}&to=${today}&by=ticket`);
  assert.equal(res.statusCode, 200, res.body.slice(0, 500));
  assert.ok(!res.body.includes('<script>alert(1)'), 'raw script tag in the page');
  assert.match(res.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  // 3 × 13,99 € at 19 % on one line: net 35,27 €, VAT 6,70 €, gross 41,97 €.
  for (const amount of ['35.27', '6.70', '41.97']) assert.ok(res.body.includes(amount), `${amount} missing`);
});

test('the CSV download opens in German Excel and is the same report', async () => {
  const de = await signIn(t, (await staffUser(t, 'admin', [], `de-${Date.now()}@example.org`)).email);
  await de.post('/console/locale', { locale: 'de', back: '/console/reports' });
  const res = await de.get(`/console/reports/sales.csv?from=${today}&to=${today}&by=day`);
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.match(res.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
  assert.match(res.headers['content-disposition'] as string, new RegExp(`attachment; filename="sales-day-${today}-${today}.csv"`));
  assert.deepEqual([...res.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(res.body.replace(/^\uFEFF/, ''), [
    '"Tag";"USt-Satz %";"Anzahl";"Netto";"USt";"Brutto"',
    `"${today}";"19";"3";"35,27";"6,70";"41,97"`,
    '"Summe";"19";"3";"35,27";"6,70";"41,97"',
    '',
  ].join('\r\n'));
  const visitors = await de.get(`/console/reports/visitors.csv?from=${today}&to=${today}`);
  assert.equal(visitors.body, '\uFEFF"Datum";"Stunde";"Eintritte";"Austritte"\r\n');
});

test('bad ranges are explained on the form, with status 422', async () => {
  const cases: Array<[string, RegExp]> = [
    [`from=${today}&to=2020-01-01`, /to must not be before from/],
    ['from=2026-02-31&to=2026-03-01', /from must be a date YYYY-MM-DD/],
    ['from=%3Cb%3Ebold%3C%2Fb%3E&to=x', /from must be a date/],
    ['from=2020-01-01&to=2026-01-01', /at most 366 days/],
  ];
  for (const [q, message] of cases) {
    const res = await manager.get(`/console/reports?${q}`);
    assert.equal(res.statusCode, 422, q);
    assert.match(res.body, message);
    assert.ok(!res.body.includes('<b>bold'), 'the bad value is escaped');
  }
  assert.equal((await manager.get('/console/reports/sales.csv?from=x&to=y')).statusCode, 422);
});

test("another museum's id is not found; roles without reports are refused", async () => {
  assert.equal((await manager.get(`/console/reports?from=${today}&to=${today}&museum_id=${x.museumB}`)).statusCode, 404);
  assert.equal((await manager.get(`/console/reports/sales.csv?from=${today}&to=${today}&museum_id=${x.museumB}`)).statusCode, 404);
  assert.equal((await manager.get(`/console/reports?museum_id=abc`)).statusCode, 404);
  for (const role of ['box_office', 'viewer'] as const) {
    const b = await signIn(t, (await staffUser(t, role, [x.museumA])).email);
    assert.equal((await b.get('/console/reports')).statusCode, 403, role);
    assert.equal((await b.get('/console/reports/sales.csv')).statusCode, 403, role);
  }
});

test('the audit log: admins only, filters, bad dates explained', async () => {
  assert.equal((await manager.get('/console/audit')).statusCode, 403);
  const admin = await signIn(t, (await staffUser(t, 'admin')).email);
  const page = await admin.get('/console/audit?actor=%3Cscript%3E');
  assert.equal(page.statusCode, 200);
  assert.ok(!page.body.includes('value="<script>'), 'the search value is escaped');
  const bad = await admin.get('/console/audit?from=2026-13-40');
  assert.equal(bad.statusCode, 422);
  assert.match(bad.body, /please give a date as YYYY-MM-DD/);
});
