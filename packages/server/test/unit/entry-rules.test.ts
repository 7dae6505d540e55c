// The entry rules as pure functions (src/domain/entry/rules.ts): the window of each kind of
// admission, and the replay that makes the earliest scan of a barcode win.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { entryWindow, replay, windowResult, type StatefulScan } from '../../src/domain/entry/rules.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const Z = 'Europe/Berlin';
const at = (date: string, min: number) => zonedInstant(date, min, Z);
const single = { entriesAllowed: 1, reentry: false, earlyMinutes: 15 };
const scan = (id: number, direction: 'entry' | 'exit', minute: number): StatefulScan => ({ id, direction, scannedAt: at('2026-06-01', minute), peopleCount: 1 });

describe('entry window', () => {
  test('a slot opens early and closes at its end, or at the last entry if earlier', () => {
    const slot = { type: 'Ticket' as const, startAt: at('2026-06-01', 600), zone: Z, durationMinutes: 30, lastEntry: 1020 };
    assert.deepEqual(entryWindow(slot, 15), { opens: at('2026-06-01', 585), closes: at('2026-06-01', 630) });
    const late = { ...slot, startAt: at('2026-06-01', 1005) };
    assert.deepEqual(entryWindow(late, 15).closes, at('2026-06-01', 1020));
  });

  test('a day ticket spans its local date, also on a 25-hour DST day', () => {
    const day = { type: 'Ticket' as const, startAt: at('2026-10-25', 0), zone: Z, durationMinutes: null, lastEntry: 1020 };
    const w = entryWindow(day, 15);
    assert.equal(w.closes.getTime() - w.opens.getTime(), 25 * 3600_000);
    assert.equal(windowResult(new Date(w.opens.getTime() - 1), w), 'not_yet_valid');
    assert.equal(windowResult(w.opens, w), null);
    assert.equal(windowResult(w.closes, w), 'expired');
  });
});

describe('replay', () => {
  test('of two entries the earlier wins, whatever order they arrive in', () => {
    const r = replay([scan(1, 'entry', 610), scan(2, 'entry', 605)], single);
    assert.deepEqual([r.results.get(2), r.results.get(1), r.state.entriesUsed], ['valid', 'already_used', 1]);
  });

  test('equal instants are ordered by id', () => {
    const r = replay([scan(7, 'entry', 600), scan(3, 'entry', 600)], single);
    assert.deepEqual([r.results.get(3), r.results.get(7)], ['valid', 'already_used']);
  });

  test('re-entry after exit, exits only from inside, continuing from a stored state', () => {
    const rule = { ...single, reentry: true };
    const r = replay([scan(1, 'entry', 600), scan(2, 'exit', 610), scan(3, 'exit', 611), scan(4, 'entry', 620), scan(5, 'entry', 621)], rule);
    assert.deepEqual([1, 2, 3, 4, 5].map((i) => r.results.get(i)), ['valid', 'valid', 'already_used', 'valid', 'already_used']);
    assert.deepEqual([r.state.entriesUsed, r.state.insidePeople], [1, 1]);
    const next = replay([scan(6, 'exit', 630)], rule, r.state);
    assert.deepEqual([next.results.get(6), next.state.insidePeople, next.state.entriesUsed], ['valid', 0, 1]);
  });

  test('an exit of a barcode never admitted is not_entered; after a visit a second exit is already_used', () => {
    const never = replay([scan(1, 'exit', 600)], single);
    assert.equal(never.results.get(1), 'not_entered');
    assert.deepEqual([never.state.entriesUsed, never.state.insidePeople], [0, 0]);
    const visit = replay([scan(2, 'entry', 600), scan(3, 'exit', 610), scan(4, 'exit', 611)], single);
    assert.deepEqual([2, 3, 4].map((i) => visit.results.get(i)), ['valid', 'valid', 'already_used']);
    // An entry made offline before that exit, arriving late, turns the exit valid in the replay.
    const late = replay([scan(5, 'exit', 610), scan(6, 'entry', 600)], single);
    assert.deepEqual([late.results.get(6), late.results.get(5)], ['valid', 'valid']);
  });
});
