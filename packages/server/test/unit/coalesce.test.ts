// Coalesced reads (src/domain/capacity/coalesce.ts): callers that arrive while a read runs share
// the NEXT read, which starts after they arrived, so each sees every write committed before it
// asked (read-your-writes), while a burst of identical reads costs about one query per run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Coalescer } from '../../src/domain/capacity/coalesce.ts';

/** A fake store whose reads take a tick and return the version current when the read STARTED. */
function store() {
  let version = 0;
  let reads = 0;
  return {
    write: () => ++version,
    read: async () => {
      reads++;
      const seen = version;
      await new Promise((r) => setTimeout(r, 5));
      return seen;
    },
    get reads() {
      return reads;
    },
  };
}

test('a caller arriving during a read never gets that read: it gets one that starts after it arrived', async () => {
  const s = store();
  const c = new Coalescer<number>();
  const first = c.run('k', s.read); // starts at version 0
  const v = s.write(); // a booking commits while the first read runs
  const second = c.run('k', s.read); // the booker asks now
  assert.equal(await first, 0);
  assert.equal(await second, v, 'the second caller sees the write it made before asking');
});

test('identical callers during one read share one further read; other keys are not mixed in', async () => {
  const s = store();
  const c = new Coalescer<number>();
  const first = c.run('k', s.read);
  const joined = Array.from({ length: 50 }, () => c.run('k', s.read));
  const other = c.run('other', s.read);
  await Promise.all([first, other, ...joined]);
  assert.equal(s.reads, 3, 'first read, one shared read for the 50, and the other key');
  assert.equal(c.size, 0, 'nothing outlives its run');
});

test('a failed read fails only its own callers; the queued read still runs', async () => {
  const c = new Coalescer<number>();
  let n = 0;
  const work = async () => {
    n++;
    await new Promise((r) => setTimeout(r, 2));
    if (n === 1) throw new Error('connection lost');
    return n;
  };
  const first = c.run('k', work);
  const second = c.run('k', work);
  await assert.rejects(first, /connection lost/);
  assert.equal(await second, 2);
});
