// A node:test reporter for `ATRIUM_TEST_TIMES=<file>` (test/run.ts): one line per top-level test
// with its time in milliseconds and its file, so the slowest can be found with `sort -rn`.
import path from 'node:path';

export default async function* fileTimes(source) {
  for await (const ev of source) {
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.nesting === 0) {
      const verdict = ev.type === 'test:fail' ? 'fail' : 'pass';
      const file = ev.data.file ? path.basename(ev.data.file) : '?';
      yield `${Math.round(ev.data.details.duration_ms)}\t${verdict}\t${file}\t${ev.data.name}\n`;
    }
  }
}
