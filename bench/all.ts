// `npm run bench`: every benchmark in sequence, each a child process with its own throwaway
// database and servers on 127.0.0.1, each bounded (BENCH_SECONDS per scenario, default 4 here;
// the write scenarios get 3 unless BENCH_SECONDS is set), with the whole run capped at 10 minutes
// (BENCH_DEADLINE tells the scripts when it ends; startup.ts then skips rounds it cannot finish).
// Each script prints its table (figures, ratios to its baseline, targets) and writes
// bench/results/<name>.json; this prints a closing summary line with each script's duration.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Per-script defaults keep the whole run under the cap: the catalogue (three cache modes and a
// large catalogue) and booking (with the outbox pairs) take the longest; a 5-minute cap cut off
// the scripts after them, hence 10 minutes. startup.ts runs last and drops the rounds that would
// not finish before the cap (BENCH_DEADLINE) instead of being killed.
const DEADLINE = Date.now() + 10 * 60_000;
const SCRIPTS: Array<{ file: string; env?: Record<string, string> }> = [
  { file: 'catalog.ts' },
  { file: 'booking.ts' },
  { file: 'documents.ts' },
  { file: 'writes.ts', env: { BENCH_SECONDS: process.env.BENCH_SECONDS ?? '3' } },
  { file: 'scans.ts', env: { BENCH_SECONDS: process.env.BENCH_SECONDS ?? '3' } },
  // 300 events: about 15 s at the busy machine's 25–40 deliveries/s.
  { file: 'webhooks.ts', env: { BENCH_EVENTS: process.env.BENCH_EVENTS ?? '300' } },
  { file: 'console-overhead.ts', env: { BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? '2' } },
  { file: 'startup.ts' },
];

function run(script: string, env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, script)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SECONDS: process.env.BENCH_SECONDS ?? '4', BENCH_DEADLINE: String(DEADLINE - 5000), ...env },
    });
    const left = Math.max(1000, DEADLINE - Date.now());
    const timer = setTimeout(() => child.kill('SIGTERM'), left);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

let passed = 0;
let failed = 0;
const started = Date.now();
const took: string[] = [];
for (const s of SCRIPTS) {
  process.stdout.write(`\n=== bench/${s.file} ===\n`);
  const t0 = Date.now();
  const code = await run(s.file, s.env);
  took.push(`${s.file.replace(/\.ts$/, '')} ${Math.round((Date.now() - t0) / 1000)} s${code === 0 ? '' : ' FAILED'}`);
  if (code === 0) passed++;
  else failed++;
}
process.stdout.write(
  `\nbench: ${passed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s: ${took.join(', ')}); figures in bench/results/*.json\n`,
);
process.exit(failed ? 1 : 0);
