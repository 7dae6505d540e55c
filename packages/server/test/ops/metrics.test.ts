// GET /metrics: Prometheus text from a per-app registry; request, latency and booking-outcome
// series, pool and live-hold gauges; no secrets; switched off by ATRIUM_METRICS=0.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { reservations } from '../../src/db/schema/index.ts';
import { testApp } from '../helpers/app.ts';
import { localDate, museum, quota, ticket } from '../helpers/factories.ts';

const t = await testApp();
const off = await testApp({ env: { ATRIUM_METRICS: '0' } });
after(async () => {
  await t.close();
  await off.close();
});

async function scrape(): Promise<string> {
  const res = await t.request({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one series, e.g. value(text, 'atrium_holds_live'). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  test('counts requests by route pattern, method and status class, with latency', async () => {
    const token = await t.token({ class: 'user' });
    for (let i = 0; i < 3; i++) await t.request({ method: 'GET', url: '/api/v4/whoami', token });
    await t.request({ method: 'GET', url: '/api/v4/whoami', token: 'nonsense-token-value' });
    const reseller = await t.token({ class: 'reseller' });
    const put = await t.request({ method: 'PUT', url: `/api/v4/reservations/${'x'.repeat(30)}`, token: reseller, payload: { quantity: 1 } });
    assert.equal(put.statusCode, 404, put.body);
    await t.request({ method: 'GET', url: '/api/v4/no-such-route' });
    const text = await scrape();
    assert.equal(value(text, 'atrium_http_requests_total{route="/api/v4/whoami",method="GET",status_class="2xx"}'), 3);
    assert.equal(value(text, 'atrium_http_requests_total{route="/api/v4/whoami",method="GET",status_class="4xx"}'), 1);
    assert.equal(value(text, 'atrium_http_requests_total{route="unmatched",method="GET",status_class="4xx"}'), 1);
    assert.equal(value(text, 'atrium_http_requests_total{route="/api/v4/reservations/:reservation_token",method="PUT",status_class="4xx"}'), 1);
    assert.equal(value(text, 'atrium_http_request_duration_seconds_count{route="/api/v4/whoami",method="GET",status_class="2xx"}'), 3);
    // Patterns, never raw paths: ids and reservation tokens stay out of label values.
    assert.ok(!text.includes('x'.repeat(30)));
    assert.ok(!text.includes('nonsense-token-value'));
    assert.ok(!text.includes(token.slice(-20)));
  });

  test('pool gauges, live holds and booking outcomes', async () => {
    const m = await museum(t.database.db);
    const q = await quota(t.database.db, { museumId: m.id, capacity: 2 });
    const tk = await ticket(t.database.db, { museumId: m.id, quotaIds: [q.id] });
    const reseller = await t.token({ class: 'reseller' });
    const startAt = `${localDate(2, 'Europe/Berlin', t.clock.now())}T10:00:00`;
    const book = (quantity: number) =>
      t.request({ method: 'POST', url: '/api/v4/reservations', token: reseller, payload: { ticket_id: tk.id, quantity, start_at: startAt } });

    let text = await scrape();
    for (const outcome of ['sold', 'sold_out', 'busy']) {
      assert.equal(value(text, `atrium_booking_outcomes_total{outcome="${outcome}"}`), 0);
    }
    assert.equal(value(text, 'atrium_holds_live'), 0);
    assert.ok((value(text, 'atrium_db_pool_connections{state="total"}') ?? -1) >= 1);
    assert.ok(value(text, 'atrium_db_pool_connections{state="idle"}') !== undefined);
    assert.equal(value(text, 'atrium_db_pool_connections{state="waiting"}'), 0);

    const first = await book(2);
    assert.equal(first.statusCode, 201, first.body);
    const second = await book(1);
    assert.equal(second.statusCode, 422, second.body);
    assert.equal(second.json().code, 'SLOT_SOLD_OUT');
    text = await scrape();
    assert.equal(value(text, 'atrium_booking_outcomes_total{outcome="sold"}'), 1);
    assert.equal(value(text, 'atrium_booking_outcomes_total{outcome="sold_out"}'), 1);
    assert.equal(value(text, 'atrium_holds_live'), 1);

    // A hold counts until it expires (the app's clock decides), and not once released.
    const accountId = (await t.database.pool.query<{ account_id: number }>('select account_id from reservations limit 1')).rows[0]!.account_id;
    const now = t.clock.now();
    const base = { accountId, ticketId: tk.id, quantity: 1, startAt: new Date(now.getTime() + 86_400_000), createdAt: now, lifetimeEndsAt: new Date(now.getTime() + 3_600_000) };
    await t.database.db.insert(reservations).values([
      { ...base, token: 'metrics-expired', expiresAt: new Date(now.getTime() - 1000) },
      { ...base, token: 'metrics-released', expiresAt: new Date(now.getTime() + 600_000), releasedAt: now },
      { ...base, token: 'metrics-consumed', expiresAt: new Date(now.getTime() + 600_000), consumedAt: now },
    ]);
    assert.equal(value(await scrape(), 'atrium_holds_live'), 1);
    t.clock.advanceMinutes(t.config.holdMinutes + 1);
    assert.equal(value(await scrape(), 'atrium_holds_live'), 0);
  });

  test('is not rate-limited, carries no store directives, and can be switched off', async () => {
    const res = await t.request({ method: 'GET', url: '/metrics' });
    assert.equal(res.headers['ratelimit-limit'], undefined);
    assert.equal(res.headers['cache-control'], 'no-store');
    const gone = await off.request({ method: 'GET', url: '/metrics' });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().code, 'ROUTE_INVALID');
  });
});
