// The client's gift cards against the real server: issue (the code shown once), balance look-up,
// paying part of an order with the card and the rest at the desk, the ledger, and a refused
// payment as a typed error with the voucher code of the contract.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { UnprocessableError } from '@atrium/client';
import { clientEnv } from './helpers/env.ts';

const env = await clientEnv();
after(() => env.close());

test('giftCards.issue, balance, pay, get and a refused payment', async () => {
  const c = env.client({ token: env.user });
  const issued = await c.giftCards.issue({ amount_cents: 1000 });
  const code = issued.gift_card.code;
  assert.equal((await c.giftCards.balance(code)).balance_cents, 1000);
  const order = await c.orders.create({ items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 1, time: env.slot(720) } }] });
  const p = await c.giftCards.pay(order.id, { code });
  assert.deepEqual([p.provider, p.amount_cents], ['gift_card', 1000]);
  await c.payments.record(order.id, { provider: 'desk', amount_cents: 400 });
  assert.equal((await c.orders.get(order.id)).status, 'finalized');
  const card = await c.giftCards.get(issued.gift_card.id);
  assert.deepEqual(card.ledger.map((l) => l.kind), ['issued', 'redeemed']);
  assert.equal((await c.giftCards.lookup(code)).gift_card.balance_cents, 0);
  assert.deepEqual((await c.giftCards.ledger(issued.gift_card.id)).map((l) => l.amount_cents), [1000, -1000]);
  assert.ok(Array.isArray((await c.giftCards.liability()).rows));
  const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  assert.ok((await c.giftCards.movements({ from, to })).kinds.some((k) => k.kind === 'redeemed'));
  const other = await c.orders.create({ items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 1, time: env.slot(750) } }] });
  await assert.rejects(c.giftCards.pay(other.id, { code }), (e) => e instanceof UnprocessableError && e.code === 'CODE_EXHAUSTED');
});
