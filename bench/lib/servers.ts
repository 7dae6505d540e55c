// Servers under test run as child processes, so the load generator (this process) does not share
// their event loop. Only 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { YOUNG_GENERATION_FLAG } from '../../packages/server/src/cluster/nodeFlags.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Child {
  base: string;
  pid: number;
  rssMb(): number;
  peakRssMb(): number;
  stop(): Promise<void>;
}

function watch(proc: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

function rss(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

// BENCH_CPU_PROF=dir: servers under test write a V8 CPU profile there when they stop (open it in
// Chrome DevTools or speedscope) — how the figures in bench/README.md were diagnosed.
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
// Servers run with the Node flags `npm start` and docs/operations.md give them (the baseline too, so
// a ratio compares like with like); BENCH_NODE_FLAGS replaces them, e.g. '' for Node's defaults.
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? YOUNG_GENERATION_FLAG).split(/\s+/).filter(Boolean);

async function start(args: string[], env: Record<string, string>, ready: RegExp, cwd = root, flags = nodeFlags): Promise<Child> {
  const proc = spawn(process.execPath, [...flags, ...profile, ...args], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const m = await watch(proc, ready, 30_000);
  const pid = proc.pid!;
  return {
    base: `http://127.0.0.1:${m[1]}`,
    pid,
    rssMb: () => rss(pid, 'VmRSS'),
    peakRssMb: () => rss(pid, 'VmHWM'),
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/**
 * `args` go after `serve --port 0`, e.g. ['--workers', '2']. `from`: another checkout of the
 * repository to run instead of this one (an A/B of two builds on the same database and machine).
 * `flags`: Node flags instead of the usual ones (an A/B of two settings, bench/gc.ts).
 */
export function startAtrium(databaseUrl: string, env: Record<string, string> = {}, args: string[] = [], from = root, flags = nodeFlags): Promise<Child> {
  return start(
    ['packages/server/bin/atrium.js', 'serve', '--port', '0', ...args],
    { DATABASE_URL: databaseUrl, ATRIUM_RESELLER_RATE_LIMIT: '1000000', ATRIUM_USER_RATE_LIMIT: '1000000', ATRIUM_PUBLIC_RATE_LIMIT: '1000000', ATRIUM_ANON_RATE_LIMIT: '1000000', ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '0', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0', ATRIUM_WORKER: process.env.BENCH_WORKER ?? 'false', ...env },
    /ready in \d+ ms on http:\/\/127\.0\.0\.1:(\d+)/,
    from,
    flags,
  );
}

export function startBaseline(databaseUrl: string): Promise<Child> {
  return start(['--import', 'tsx', 'bench/baseline-server.ts'], { DATABASE_URL: databaseUrl }, /baseline listening on (\d+)/);
}
