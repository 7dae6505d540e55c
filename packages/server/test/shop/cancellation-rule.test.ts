// The visitor's cancellation rule: never, N hours, the default of 24 hours, and its boundary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cancellableUntil, mayCancel, parseRule } from '../../src/domain/shop/cancellationRule.ts';

const start = new Date('2026-06-10T10:00:00Z');
const H = 3_600_000;
const day24 = parseRule('24h')!;

describe('cancellation rule', () => {
  test('parses never and N hours; refuses anything else', () => {
    assert.deepEqual(parseRule('never'), { kind: 'never' });
    assert.deepEqual(parseRule('48h'), { kind: 'hours', hours: 48 });
    assert.deepEqual(parseRule('0h'), { kind: 'hours', hours: 0 });
    for (const bad of ['', '24', 'h', '-1h', '12345h', 'Never', null, undefined]) assert.equal(parseRule(bad), null, String(bad));
  });

  test('default 24 hours: allowed at exactly 24 hours before, refused a millisecond later', () => {
    const item = { status: 'active', startAt: start, rule: null };
    assert.equal(mayCancel(item, day24, new Date(start.getTime() - 25 * H)), true);
    assert.equal(mayCancel(item, day24, new Date(start.getTime() - 24 * H)), true);
    assert.equal(mayCancel(item, day24, new Date(start.getTime() - 24 * H + 1)), false);
    assert.equal(cancellableUntil(day24, start)!.getTime(), start.getTime() - 24 * H);
  });

  test("a product's own rule wins over the default: never, or its hours", () => {
    const early = new Date(start.getTime() - 100 * H);
    assert.equal(mayCancel({ status: 'active', startAt: start, rule: 'never' }, day24, early), false);
    assert.equal(mayCancel({ status: 'active', startAt: start, rule: '2h' }, day24, new Date(start.getTime() - 3 * H)), true);
    assert.equal(mayCancel({ status: 'active', startAt: start, rule: '2h' }, day24, new Date(start.getTime() - 2 * H + 1)), false);
    assert.equal(mayCancel({ status: 'active', startAt: start, rule: '120h' }, day24, early), false);
    assert.equal(mayCancel({ status: 'active', startAt: start, rule: null }, parseRule('never')!, early), false);
  });

  test('a cancelled item cannot be cancelled again', () => {
    assert.equal(mayCancel({ status: 'cancelled', startAt: start, rule: null }, day24, new Date(start.getTime() - 100 * H)), false);
  });
});
