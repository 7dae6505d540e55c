// The demo provider (demo mode only): a marked page that never charges, whose buttons confirm or
// fail the payment through the same verb as a real provider. And the payment settings: providers
// are enabled per instance, demo only in demo mode, keys required and never shown.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { zonedInstant } from '../../src/domain/time.ts';

let t: TestApp;
let token: string;
let ticketId: number;
before(async () => {
  t = await testApp({ env: { ATRIUM_DEMO: 'true' } });
  const museumId = (await f.museum(t.database.db)).id;
  const q = await f.quota(t.database.db, { museumId, capacity: 10 });
  ticketId = (await f.ticket(t.database.db, { museumId, quotaIds: [q.id] })).id;
  token = await t.token({ class: 'user' });
});
after(() => t.close());

async function demoCheckout() {
  const time = zonedInstant(f.localDate(3), 600, 'Europe/Berlin').toISOString();
  const o = await t.request({ method: 'POST', url: '/api/v4/orders', token, payload: { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time } }] } });
  const id = o.json().order.id;
  const c = await t.request({ method: 'POST', url: `/api/v4/orders/${id}/checkout`, token, payload: { provider: 'demo', return_url: 'https://shop.example.org/back' } });
  assert.equal(c.statusCode, 201, c.body);
  return { id, ref: c.json().payment.provider_ref as string, url: new URL(c.json().redirect_url as string) };
}
const press = (ref: string, outcome: string) =>
  t.request({ method: 'POST', url: `/api/v4/payments/demo/${ref}`, payload: `outcome=${outcome}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('demo provider', () => {
  test('the page is marked as a demo; "pay" confirms and finalizes the order', async () => {
    const { id, ref, url } = await demoCheckout();
    const page = await t.request({ method: 'GET', url: url.pathname });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.body, /DEMO — this page never charges anything/);
    const done = await press(ref, 'paid');
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /https:\/\/shop\.example\.org\/back/);
    assert.equal((await t.request({ method: 'GET', url: `/api/v4/orders/${id}`, token })).json().order.status, 'finalized');
    // A second press changes nothing.
    await press(ref, 'failed');
    assert.equal((await t.request({ method: 'GET', url: `/api/v4/orders/${id}/payments`, token })).json().payments[0].state, 'confirmed');
  });

  test('"fail" fails the payment and leaves the order pending', async () => {
    const { id, ref } = await demoCheckout();
    await press(ref, 'failed');
    const m = (await t.request({ method: 'GET', url: `/api/v4/orders/${id}/payments`, token })).json();
    assert.deepEqual([m.payments[0].state, m.payment_status], ['failed', 'unpaid']);
    assert.equal((await press('demo_1_000000000000', 'paid')).statusCode, 404);
  });

  test('a provider that is not enabled is refused', async () => {
    const { id } = await demoCheckout();
    const r = await t.request({ method: 'POST', url: `/api/v4/orders/${id}/checkout`, token, payload: { provider: 'stripe', return_url: 'https://shop.example.org/back' } });
    assert.equal(r.statusCode, 422);
    assert.equal(r.json().code, 'PAYMENT_PROVIDER_UNAVAILABLE');
    assert.equal((await t.request({ method: 'POST', url: '/api/v4/payments/stripe/webhook', payload: '{}', headers: { 'content-type': 'application/json' } })).statusCode, 404);
  });
});

describe('payment settings', () => {
  const base = { ATRIUM_DATA_DIR: '/nonexistent' };
  test('demo only in demo mode; stripe and mollie need their keys', () => {
    assert.throws(() => loadConfig({ ...base, ATRIUM_PAYMENT_PROVIDERS: 'demo' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, ATRIUM_PAYMENT_PROVIDERS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' }), /STRIPE_WEBHOOK_SECRET/);
    assert.throws(() => loadConfig({ ...base, ATRIUM_PAYMENT_PROVIDERS: 'mollie' }), /MOLLIE_API_KEY/);
    assert.throws(() => loadConfig({ ...base, ATRIUM_PAYMENT_PROVIDERS: 'paypal' }), /unknown provider/);
    assert.deepEqual(loadConfig(base).payments.providers, ['desk', 'invoice']);
  });

  test('keys never appear when the configuration is printed or serialized', async () => {
    const c = loadConfig({ ...base, ATRIUM_PAYMENT_PROVIDERS: 'stripe,mollie', STRIPE_SECRET_KEY: 'sk_live_SECRET1', STRIPE_WEBHOOK_SECRET: 'whsec_SECRET2', MOLLIE_API_KEY: 'live_SECRET3' });
    const { inspect } = await import('node:util');
    for (const text of [JSON.stringify(c), inspect(c, { depth: 10 }), String(c.payments.stripe.secretKey)]) {
      assert.doesNotMatch(text, /SECRET[123]/);
    }
    assert.equal(c.payments.stripe.secretKey!.reveal(), 'sk_live_SECRET1');
  });
});
