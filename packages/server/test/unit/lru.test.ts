// The bounded LRU under every in-process cache (src/cache/lru.ts): eviction takes the least
// recently used entry, and a read moves an entry at most once a second.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lru } from '../../src/cache/lru.ts';

const FAR = 10 ** 12;

function filled(): Lru<string> {
  const lru = new Lru<string>(3, 1_000_000);
  for (const k of ['a', 'b', 'c']) lru.set(k, k, 1, FAR, lru.gen);
  return lru;
}

test('a read keeps an entry from eviction; the least recently used goes first', () => {
  const lru = filled();
  assert.equal(lru.get('a', 5_000), 'a');
  lru.set('d', 'd', 1, FAR, lru.gen);
  assert.equal(lru.get('b', 5_000), undefined, 'b was the least recently used');
  assert.equal(lru.get('a', 5_000), 'a');
  assert.equal(lru.get('c', 5_000), 'c');
});

test('a read within a second of the entry\'s last move leaves the order as it is', () => {
  const lru = filled();
  lru.get('a', 5_000); // order b, c, a
  lru.get('b', 5_000); // order c, a, b
  lru.get('a', 5_500); // within a second of a's move: still c, a, b
  lru.set('d', 'd', 1, FAR, lru.gen); // evicts c
  lru.set('e', 'e', 1, FAR, lru.gen); // evicts a
  assert.equal(lru.get('a', 5_600), undefined);
  assert.equal(lru.get('b', 5_600), 'b');
  // A second later a read moves it again.
  lru.get('b', 6_100); // order d, e, b
  lru.set('f', 'f', 1, FAR, lru.gen); // evicts d
  assert.equal(lru.get('d', 6_100), undefined);
  assert.equal(lru.get('b', 6_100), 'b');
});

test('an expired entry is gone on read', () => {
  const lru = new Lru<string>(3, 1_000_000);
  lru.set('a', 'a', 1, 2_000, lru.gen);
  assert.equal(lru.get('a', 1_999), 'a');
  assert.equal(lru.get('a', 2_000), undefined);
  assert.equal(lru.size, 0);
});
