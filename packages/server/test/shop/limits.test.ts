// Bots must not hold a day: a cart holds at most so many places, and holding actions are counted
// per visitor and per address (src/http/shop/limits.ts). The message says what to do.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DomainError } from '../../src/domain/errors.ts';
import { shopLimiter } from '../../src/http/shop/limits.ts';
import { SHOP_MESSAGES } from '../../src/http/shop/i18n.ts';
import { redirectOf, shopWorld, Visitor } from './support.ts';

const w = await shopWorld({ capacity: 200 });
after(() => w.t.close());

test('a cart holds at most 30 places', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  for (const min of [600, 630, 660]) {
    assert.equal(redirectOf(await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(min), [`q_${w.regular}`]: 8, [`q_${w.reduced}`]: 2 })), '/shop/cart');
  }
  const full = await v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(690), [`q_${w.regular}`]: 1 });
  assert.equal(full.statusCode, 422);
  assert.match(full.body, /at most 30 places/);
});

test('the per-visitor budget, then the per-address budget', () => {
  const l = shopLimiter({ perVisitor: 2, perAddress: 3, placesPerCart: 10 });
  l.take('a', '1.1.1.1');
  l.take('a', '1.1.1.1');
  assert.throws(() => l.take('a', '1.1.1.1'), (e: unknown) => e instanceof DomainError && e.code === 'RATE_LIMITED' && (e.retryAfter ?? 0) > 0);
  // A new cookie does not buy a new budget at the same address.
  assert.throws(() => l.take('b', '1.1.1.1'), (e: unknown) => e instanceof DomainError && e.code === 'RATE_LIMITED');
  l.take('c', '2.2.2.2');
});

test('German and English have the same message keys', () => {
  assert.deepEqual(Object.keys(SHOP_MESSAGES.de).sort(), Object.keys(SHOP_MESSAGES.en).sort());
});
