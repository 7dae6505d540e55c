// Gift-card codes: long, from the CSPRNG, with check characters that refuse a mistyped code
// before the database is asked (a look-up with a database that fails on any use still answers
// CODE_INVALID), and never kept in a log line's URL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CODE_LENGTH, formatCode, newCode, normalizeCode } from '../../src/domain/vouchers/code.ts';
import { giftCardBalance, payWithGiftCard } from '../../src/domain/vouchers/redeem.ts';
import { maskUrl } from '../../src/http/api/plugins/request-log.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { ManualClock } from '../../src/domain/clock.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

test('codes are 20 characters, distinct, and accepted as printed, in lower case or with spaces', () => {
  const codes = new Set(Array.from({ length: 2000 }, newCode));
  assert.equal(codes.size, 2000);
  for (const c of [...codes].slice(0, 50)) {
    assert.equal(c.length, CODE_LENGTH);
    assert.ok(CODE_LENGTH >= 16);
    assert.equal(normalizeCode(c), c);
    assert.equal(normalizeCode(formatCode(c)), c);
    assert.equal(normalizeCode(formatCode(c).toLowerCase().replace(/-/g, ' ')), c);
  }
});

test('every single mistyped character is refused by the check characters', () => {
  for (let k = 0; k < 40; k++) {
    const c = newCode();
    for (let i = 0; i < c.length; i++) {
      for (const ch of ALPHABET) {
        if (ch === c[i]) continue;
        const typo = c.slice(0, i) + ch + c.slice(i + 1);
        assert.equal(normalizeCode(typo), null, `${typo} passed for ${c}`);
      }
    }
  }
});

test('swapped neighbours, a dropped or an added character are refused (all but a rare swap)', () => {
  let swaps = 0;
  let missed = 0;
  for (let k = 0; k < 300; k++) {
    const c = newCode();
    assert.equal(normalizeCode(c.slice(1)), null);
    assert.equal(normalizeCode(c + 'A'), null);
    for (let i = 0; i + 1 < c.length; i++) {
      if (c[i] === c[i + 1]) continue;
      swaps++;
      if (normalizeCode(c.slice(0, i) + c[i + 1] + c[i] + c.slice(i + 2)) !== null) missed++;
    }
  }
  assert.ok(missed / swaps < 0.01, `${missed} of ${swaps} swaps passed`);
});

test('a mistyped code is refused without any database access', async () => {
  const noDb = new Proxy({}, { get: () => { throw new Error('the database was asked'); } }) as Ctx['db'];
  const ctx = { db: noDb, clock: new ManualClock(), principal: { kind: 'anonymous', access: 'public', museumIds: [] } } as unknown as Ctx;
  const c = newCode();
  const typo = c.slice(0, 5) + (c[5] === 'A' ? 'B' : 'A') + c.slice(6);
  for (const bad of [typo, 'GIFT-1234', '', 'x'.repeat(64)]) {
    await assert.rejects(giftCardBalance(ctx, bad), (e) => e instanceof DomainError && e.code === 'CODE_INVALID');
    await assert.rejects(payWithGiftCard(ctx, '1', { code: bad }), (e) => e instanceof DomainError && e.code === 'CODE_INVALID');
  }
});

test('request logging masks a code in the query string', () => {
  const c = newCode();
  assert.equal(maskUrl(`/api/v4/gift_cards/balance?code=${c}`), '/api/v4/gift_cards/balance?code=****');
});
