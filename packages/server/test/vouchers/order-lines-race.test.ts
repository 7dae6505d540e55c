// A gift card sold in an order, its order cancelled while the card pays another order at the same
// moment: exactly one of the two succeeds (the card is voided untouched, or spent and its order
// kept), never both. The control run, with the void's lock and guard and the payment's guard off,
// shows the test would catch money refunded for a card that was spent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openSecret, sealingKey } from '../../src/domain/webhooks/secrets.ts';
import { paymentsWorld, type PaymentsWorld } from '../payments/support.ts';

let w: PaymentsWorld;
let loose: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
  loose = await paymentsWorld({ testing: { disableGiftCardGuard: true, unguardedGiftCardVoid: true } });
});
after(async () => {
  await w.close();
  await loose.close();
});

/** A card bought in a finalized order; its code read from the sealed copy the order keeps. */
async function soldCard(x: PaymentsWorld) {
  const r = await x.post('/orders', { finalize: true, items: [{ type: 'GiftCard', attributes: { amount_cents: 2500 } }] });
  assert.equal(r.statusCode, 201, r.body);
  const o = r.json().order;
  const cardId = o.items[0].attributes.gift_cards[0].id as number;
  const row = (await x.t.database.db.execute<{ code_sealed: string }>(sql`select code_sealed from gift_cards where id = ${cardId}`)).rows[0]!;
  return { orderId: o.id as number, cardId, code: openSecret(row.code_sealed, sealingKey(x.t.config)) };
}

async function race(x: PaymentsWorld, min: number) {
  const sold = await soldCard(x);
  const other = await x.order(1, min); // 14.00, pending
  const [cancel, pay] = await Promise.all([
    x.post(`/orders/${sold.orderId}/cancellations`, {}),
    x.post(`/orders/${other}/payments/gift_card`, { code: sold.code, amount_cents: 1000 }),
  ]);
  const card = (await x.get(`/gift_cards/${sold.cardId}`)).json();
  return { cancel: cancel.statusCode, pay: pay.statusCode, codes: [cancel.json().code, pay.json().code], balance: card.gift_card.balance_cents as number, ledger: card.ledger.map((l: { kind: string }) => l.kind) as string[] };
}

describe('cancelling a sold card while it pays', () => {
  test('exactly one wins, and the card says which', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await race(w, 600 + 30 * i);
      const ok = [r.cancel === 200, r.pay === 201];
      assert.equal(ok.filter(Boolean).length, 1, JSON.stringify(r));
      if (ok[0]) assert.deepEqual([r.balance, r.ledger, r.codes[1]], [0, ['issued', 'voided'], 'CODE_EXHAUSTED'], JSON.stringify(r));
      else assert.deepEqual([r.balance, r.ledger, r.codes[0]], [1500, ['issued', 'redeemed'], 'CODE_REDEEMED'], JSON.stringify(r));
    }
  });

  test('control: without the lock and the guards both succeed (the test above would catch it)', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await race(loose, 600 + 30 * i));
    assert.ok(runs.some((r) => r.cancel === 200 && r.pay === 201), JSON.stringify(runs));
  });
});
