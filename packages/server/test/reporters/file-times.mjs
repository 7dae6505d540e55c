// A node:test reporter for `ATRIUM_TEST_TIMES=<file>` (test/run.ts): one line per top-level test
// with its time in milliseconds, the second of the run it ended at, and its file, so the slowest
// can be found with `sort -rn` and the run's tail (what still runs at the end) with `sort -k3 -n`.
import path from 'node:path';

export default async function* fileTimes(source) {
  const start = Date.now();
  for await (const ev of source) {
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.nesting === 0) {
      const verdict = ev.type === 'test:fail' ? 'fail' : 'pass';
      const file = ev.data.file ? path.basename(ev.data.file) : '?';
      const endedAt = ((Date.now() - start) / 1000).toFixed(1);
      yield `${Math.round(ev.data.details.duration_ms)}\t${verdict}\t${endedAt}\t${file}\t${ev.data.name}\n`;
    }
  }
}
