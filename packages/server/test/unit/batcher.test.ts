// db/batcher.ts: items queued while the lanes are busy share the next call; with `lingerMs`, a
// free lane waits for company unless `lingerBelow` items are already waiting.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Batcher } from '../../src/db/batcher.ts';

/** A batcher whose calls answer each item doubled, recording the size of every call. */
function recording(opts: ConstructorParameters<typeof Batcher<number, number>>[0]) {
  const calls: number[][] = [];
  let release: () => void = () => {};
  let hold = false;
  const b = new Batcher<number, number>(opts, async (items) => {
    calls.push(items);
    if (hold) await new Promise<void>((r) => (release = r));
    return items.map((i) => ({ ok: i * 2 }));
  });
  return { b, calls, holdNext: () => (hold = true), release: () => { hold = false; release(); } };
}

describe('Batcher', () => {
  test('without linger a lone item goes at once; items queued behind a busy lane share a call', async () => {
    const r = recording({ lanes: 1, maxBatch: 64 });
    r.holdNext();
    const first = r.b.submit(1);
    assert.deepEqual(r.calls, [[1]], 'the first item went out alone, without waiting');
    const rest = [r.b.submit(2), r.b.submit(3), r.b.submit(4)];
    r.release();
    assert.deepEqual(await Promise.all([first, ...rest]), [2, 4, 6, 8]);
    assert.deepEqual(r.calls, [[1], [2, 3, 4]]);
  });

  test('with linger, items arriving within the window go out together', async () => {
    // A window far longer than the 2 ms pause: on a loaded machine a timer can fire tens of ms
    // late, and a 20 ms window then closed before the later items arrived (a flaky failure).
    const r = recording({ lanes: 2, maxBatch: 64, lingerMs: 400, lingerBelow: 8 });
    const a = r.b.submit(1);
    assert.deepEqual(r.calls, [], 'a free lane waits for company');
    await new Promise((res) => setTimeout(res, 2));
    const bc = [r.b.submit(2), r.b.submit(3)];
    assert.deepEqual(await Promise.all([a, ...bc]), [2, 4, 6]);
    assert.deepEqual(r.calls, [[1, 2, 3]]);
    // A lone item still goes out once the window has passed.
    assert.equal(await r.b.submit(5), 10);
    assert.deepEqual(r.calls.at(-1), [5]);
  });

  test('with linger, an item that already waited for a busy lane does not wait again', async () => {
    const r = recording({ lanes: 1, maxBatch: 64, lingerMs: 200, lingerBelow: 8 });
    const first = r.b.submit(1); // lingers 200 ms, then goes out
    await new Promise((res) => setTimeout(res, 250));
    assert.deepEqual(r.calls, [[1]]);
    r.holdNext();
    const second = r.b.submit(2);
    await new Promise((res) => setTimeout(res, 250)); // 2 lingered, then waited for the lane
    assert.deepEqual(r.calls, [[1], [2]]);
    const third = r.b.submit(3);
    await new Promise((res) => setTimeout(res, 250)); // 3 waits behind the held call
    r.release();
    const late = new Promise((res) => setTimeout(() => res('lingered again'), 150));
    assert.equal(await Promise.race([third, late]), 6, 'the waiting item went out when the lane freed');
    assert.deepEqual(await Promise.all([first, second]), [2, 4]);
  });

  test('with linger, lingerBelow items waiting go out at once', { timeout: 10_000 }, async () => {
    // A linger of a minute: if the batch waited for the timer, the test would time out.
    const r = recording({ lanes: 1, maxBatch: 64, lingerMs: 60_000, lingerBelow: 3 });
    const all = [r.b.submit(1), r.b.submit(2), r.b.submit(3)];
    assert.deepEqual(await Promise.all(all), [2, 4, 6]);
    assert.deepEqual(r.calls, [[1, 2, 3]]);
  });
});
