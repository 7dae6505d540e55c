// GET /api/v4/reports/payments: per provider and museum-local day, payments confirmed, refunds
// done and the net; as CSV one line per payment and refund. User tokens with the reports right
// only; a bad or too long range is 422 and names what is wrong.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { localDateOf } from '../../src/domain/time.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

let w: PaymentsWorld;
let reports: string;
let today: string;
let sessionId: string;
let stripeOrder: number;

before(async () => {
  w = await paymentsWorld();
  reports = await w.t.token({ class: 'user', rights: ['reports:read'] });
  today = localDateOf(w.t.clock.now(), 'Europe/Berlin');
  const desk = await w.order(1, 600);
  const r = await w.post(`/orders/${desk}/payments`, { payment: { provider: 'desk', amount_cents: 1400, method: 'cash' } });
  assert.equal(r.statusCode, 201, r.body);
  stripeOrder = await w.order(2, 660);
  sessionId = (await stripeCheckout(w, stripeOrder)).sessionId;
  w.stripe.pay(sessionId);
  assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
  const refund = await w.post(`/orders/${stripeOrder}/refunds`, { amount_cents: 500, reason: 'one ticket returned' });
  assert.ok(refund.statusCode < 300, refund.body);
  await w.order(1, 720); // pending, never paid: not in the report
});
after(() => w.close());

const report = (query: string, headers: Record<string, string> = {}, token = reports) =>
  w.t.request({ method: 'GET', url: `/api/v4/reports/payments?${query}`, token, headers });

describe('payments reconciliation report', () => {
  test('sums per provider and day, with the net', async () => {
    const res = await report(`from=${today}&to=${today}`);
    assert.equal(res.statusCode, 200, res.body);
    const b = res.json();
    assert.deepEqual(b.rows, [
      { provider: 'desk', day: today, confirmed: { count: 1, cents: 1400 }, refunded: { count: 0, cents: 0 }, net_cents: 1400 },
      { provider: 'stripe', day: today, confirmed: { count: 1, cents: 2800 }, refunded: { count: 1, cents: 500 }, net_cents: 2300 },
    ]);
    assert.deepEqual(b.total, { confirmed: { count: 2, cents: 4200 }, refunded: { count: 1, cents: 500 }, net_cents: 3700 });
  });

  test('days without money are empty', async () => {
    const res = await report('from=2020-01-01&to=2020-01-31');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().rows, []);
  });

  test('as CSV (Accept or format=csv): one line per payment and refund', async () => {
    for (const res of [await report(`from=${today}&to=${today}`, { accept: 'text/csv' }), await report(`from=${today}&to=${today}&format=csv`)]) {
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      assert.equal(lines.length, 4);
      assert.match(lines[0]!, /"provider_ref";"order_id"/);
      const refund = lines.find((l) => l.includes('"refund"'))!;
      assert.ok(refund.includes(`"${stripeOrder}"`) && refund.includes('"-5,00"') && refund.includes('"done"'), refund);
      const paid = lines.find((l) => l.includes('"stripe";"payment"'))!;
      assert.ok(paid.includes(`"${sessionId}"`) && paid.includes('"28,00"'), paid);
    }
  });

  test('bad input is 422 and says what is wrong', async () => {
    const cases: Array<[string, RegExp]> = [
      ['from=2026-02-10&to=2026-02-01', /before from/],
      ['from=2026-02-30&to=2026-03-01', /from must be a date/],
      ['from=yesterday&to=2026-03-01', /from must be a date/],
      ['from=2025-01-01&to=2026-01-02', /at most 366 days/],
    ];
    for (const [q, why] of cases) {
      const res = await report(q);
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.match(JSON.stringify(res.json()), why);
    }
    assert.equal((await report('from=2026-01-01&to=2026-12-31')).statusCode, 200, 'a whole year is allowed');
    assert.equal((await report(`to=${today}`)).statusCode, 422, "from is required");
  });

  test('only user tokens with the reports right', async () => {
    assert.equal((await report(`from=${today}&to=${today}`, {}, w.staff)).statusCode, 403);
    assert.equal((await report(`from=${today}&to=${today}`, {}, w.reseller)).statusCode, 403);
    assert.equal((await w.t.request({ method: 'GET', url: `/api/v4/reports/payments?from=${today}&to=${today}` })).statusCode, 401);
  });
});
