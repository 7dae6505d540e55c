// The client's payments and refunds against the real server: money recorded at the desk settles
// the order, the list shows it with the payment status, a refund goes back, and a refused one is
// a typed error that is not resent.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { UnprocessableError } from '@atrium/client';
import { clientEnv } from './helpers/env.ts';

const env = await clientEnv();
after(() => env.close());

describe('payments and refunds', () => {
  test('payments.record, payments.list and refunds.create', async () => {
    const c = env.client({ token: env.user });
    const order = await c.orders.create({ finalize: false, items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 2, time: env.slot(600) } }] });
    const p = await c.payments.record(order.id, { provider: 'desk', amount_cents: 2800, method: 'cash' });
    assert.deepEqual([p.state, p.amount_cents], ['confirmed', 2800]);
    assert.equal((await c.orders.get(order.id)).status, 'finalized');
    const refunds = await c.refunds.create(order.id, { amount_cents: 1400, reason: 'one visitor fell ill' });
    assert.deepEqual(refunds.map((r) => [r.state, r.amount_cents]), [['done', 1400]]);
    const list = await c.payments.list(order.id);
    assert.deepEqual([list.payment_status, list.paid_cents, list.refunded_cents], ['partially_refunded', 2800, 1400]);
    env.proxy.reset();
    await assert.rejects(c.refunds.create(order.id, { amount_cents: 5000, reason: 'too much' }), (e) => e instanceof UnprocessableError && e.code === 'REFUND_EXCEEDS_PAID');
    assert.equal(env.proxy.count('POST', /\/refunds$/), 1, 'a refused refund is not resent');
  });

  test('payments.report sums what was paid and refunded per provider and day', async () => {
    const c = env.client({ token: env.user });
    const order = await c.orders.create({ finalize: false, items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 1, time: env.slot(660) } }] });
    await c.payments.record(order.id, { provider: 'desk', amount_cents: 1400, method: 'card' });
    const day = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const report = await c.payments.report({ from, to });
    const desk = report.rows.filter((r) => r.provider === 'desk');
    assert.ok(desk.length >= 1, `a desk row in ${JSON.stringify(report.rows)} around ${day}`);
    assert.ok(report.total.confirmed.cents >= 1400);
  });

  test('gomus.lookup reads the countries, states and dispatch modes', async () => {
    const c = env.client({});
    const countries = await c.gomus.lookup('countries', { per_page: 100, locale: 'de' });
    assert.ok(countries.some((x) => x.code === 'DE' && x.name === 'Deutschland'), JSON.stringify(countries.slice(0, 3)));
    assert.deepEqual(await c.gomus.lookup('states'), []);
    assert.deepEqual((await c.gomus.lookup('dispatch_modes')).map((m) => m.id), [1]);
  });
});
