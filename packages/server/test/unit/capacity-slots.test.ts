// Pure slot arithmetic: entry grids, day-quota keys and tour starts on DST days in Berlin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseTicketStart, quotaSlotKey, ticketSlots, tourStarts } from '../../src/domain/capacity/slots.ts';
import { lockKey, quotaLockKey } from '../../src/domain/capacity/locks.ts';
import { peakConcurrency } from '../../src/domain/capacity/used.ts';

const Z = 'Europe/Berlin';
const grid = { ticketType: 'time_slot', firstEntry: 60, lastEntry: 240, entryDuration: 60 };
const iso = (ds: Date[]) => ds.map((d) => d.toISOString());

test('spring forward (2026-03-29): 02:00 does not exist and folds onto 03:00 once', () => {
  assert.deepEqual(iso(ticketSlots(grid, '2026-03-29', Z)), [
    '2026-03-29T00:00:00.000Z', // 01:00 CET
    '2026-03-29T01:00:00.000Z', // 02:00 → 03:00 CEST
    '2026-03-29T02:00:00.000Z', // 04:00 CEST
  ]);
  assert.equal(quotaSlotKey('day', new Date('2026-03-29T08:00:00Z'), Z).toISOString(), '2026-03-28T23:00:00.000Z');
});

test('fall back (2026-10-25): wall-clock slots, day key at local midnight', () => {
  const slots = iso(ticketSlots(grid, '2026-10-25', Z));
  // 02:00 happens twice; the grid has exactly one 02:00 slot (whichever instant time.ts picks).
  assert.equal(slots.length, 4);
  assert.deepEqual([slots[0], slots[2], slots[3]], ['2026-10-24T23:00:00.000Z', '2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00.000Z']);
  assert.ok(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z'].includes(slots[1]!));
  const otherTwo = slots[1] === '2026-10-25T00:00:00.000Z' ? '2026-10-25T01:00:00.000Z' : '2026-10-25T00:00:00.000Z';
  assert.equal(quotaSlotKey('day', new Date('2026-10-25T20:00:00Z'), Z).toISOString(), '2026-10-24T22:00:00.000Z');
  assert.equal(quotaSlotKey('slot', new Date('2026-10-25T02:00:00Z'), Z).toISOString(), '2026-10-25T02:00:00.000Z');
  // The second 02:00 (CET) is not a slot start: the grid counts wall-clock minutes once.
  assert.equal(normaliseTicketStart(grid, new Date(otherTwo), Z), null);
});

test('day tickets normalise any time of the date to first entry; off-grid slot starts are refused', () => {
  const day = { ticketType: 'normal', firstEntry: 540, lastEntry: 1020, entryDuration: null };
  assert.deepEqual(normaliseTicketStart(day, new Date('2026-07-06T21:59:00Z'), Z), { date: '2026-07-06', slot: new Date('2026-07-06T07:00:00Z') });
  assert.equal(normaliseTicketStart(grid, new Date('2026-07-06T00:30:00Z'), Z), null);
  assert.equal(normaliseTicketStart(grid, new Date('2026-07-06T00:00:00.001Z'), Z), null);
});

test('tour starts follow window and step; peak concurrency counts simultaneous runs only', () => {
  assert.equal(tourStarts({ windowStart: 600, windowEnd: 660, step: 15 }, '2026-03-29', Z).length, 5);
  const h = (x: number) => new Date(Date.UTC(2026, 0, 1, x));
  const runs = [{ start: h(10), end: h(11), quantity: 1 }, { start: h(11), end: h(12), quantity: 1 }];
  assert.equal(peakConcurrency(runs, h(10), h(12)), 1);
  assert.equal(peakConcurrency([...runs, { start: h(10), end: h(12), quantity: 1 }], h(10), h(12)), 2);
});

test('lock keys are stable, distinct per pool and signed 64-bit', () => {
  const a = quotaLockKey(1, new Date('2026-03-29T08:00:00Z'));
  assert.equal(a, quotaLockKey(1, new Date('2026-03-29T08:00:00Z')));
  assert.notEqual(a, quotaLockKey(2, new Date('2026-03-29T08:00:00Z')));
  assert.notEqual(lockKey('d', 1), lockKey('t', 1));
  assert.ok(a >= -(2n ** 63n) && a < 2n ** 63n);
});
