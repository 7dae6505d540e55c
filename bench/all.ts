// `npm run bench`: every benchmark in sequence, each a child process with its own throwaway
// database and servers on 127.0.0.1, each bounded (BENCH_SECONDS per scenario, default 6 here),
// with the whole run capped at 5 minutes. Each script prints its table (figures, ratios to its
// baseline, targets) and writes bench/results/<name>.json; this prints a closing summary line.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCRIPTS = ['catalog.ts', 'booking.ts', 'documents.ts'];
const DEADLINE = Date.now() + 5 * 60_000;

function run(script: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, script)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SECONDS: process.env.BENCH_SECONDS ?? '6' },
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
for (const s of SCRIPTS) {
  process.stdout.write(`\n=== bench/${s} ===\n`);
  const code = await run(s);
  if (code === 0) passed++;
  else failed++;
}
process.stdout.write(
  `\nbench: ${passed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s); figures in bench/results/*.json\n`,
);
process.exit(failed ? 1 : 0);
