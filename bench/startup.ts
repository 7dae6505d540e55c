// Start-up benchmark: how long `npm start` takes until the service is ready,
// (a) on a fresh data directory (embedded PostgreSQL initdb + migrations + demo catalogue) and
// (b) on an existing one (the second start on the same directory).
//   npx tsx bench/startup.ts            BENCH_STARTS=3 (rounds: one fresh start, then a restart)
// Each start runs the real `npm start` from the repository root in its own process group, with
// ATRIUM_DATA_DIR in a temp dir, PORT a free port on 127.0.0.1 and DATABASE_URL removed (so the
// embedded PostgreSQL is used, as a new user's first `npm start`). Measured: wall-clock from spawn
// until GET /readyz answers 200 (polled every 25 ms), and the server's own "ready in N ms" line
// (counted from the start of `atrium serve`, so it leaves out npm and module loading). Then
// SIGTERM to the group (as Ctrl-C does) and wait until every process of it has exited; a start
// that is not ready within 60 s is killed. Goals: fresh ≤ 8 s, existing ≤ 3 s (median wall).
// Writes bench/results/startup.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const STARTS = Math.max(1, Number(process.env.BENCH_STARTS ?? 3));
const READY_LIMIT_MS = 60_000;
const STOP_LIMIT_MS = 20_000; // the server's own shutdown grace is 15 s
const POLL_MS = 25;
const GOALS = { fresh: 8000, existing: 3000 } as const;

type Case = keyof typeof GOALS;
interface Start {
  case: Case;
  dataDir: string;
  wallMs: number;
  readyInMs: number | null;
  seeded: boolean;
  stopMs: number;
  /** How npm start ended after SIGTERM: an exit code or the signal. */
  ended: string;
}

class Stopping extends Error {}
const tempDirs = new Set<string>();
let current: ChildProcess | undefined;
// Set on SIGINT/SIGTERM (npm run bench's deadline): no new `npm start` may be spawned after it,
// or it would outlive this script (it runs in its own process group).
let stopping = false;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-startup-'));
  // As root the embedded PostgreSQL runs as the `postgres` user, which must reach the directory.
  fs.chmodSync(dir, 0o755);
  tempDirs.add(dir);
  return dir;
}

function removeDataDir(dir: string) {
  fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to the whole process group, then wait until none of it is left; SIGKILL after the limit. */
async function stopGroup(proc: ChildProcess): Promise<number> {
  const pgid = proc.pid!;
  const t0 = performance.now();
  signalGroup(pgid, 'SIGTERM');
  while (groupAlive(pgid) && performance.now() - t0 < STOP_LIMIT_MS) await sleep(50);
  if (groupAlive(pgid)) {
    process.stderr.write(`startup: process group ${pgid} still running ${STOP_LIMIT_MS} ms after SIGTERM, killing it\n`);
    signalGroup(pgid, 'SIGKILL');
    while (groupAlive(pgid)) await sleep(50);
  }
  return Math.round(performance.now() - t0);
}

async function readyz(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false; // not listening yet
  }
}

async function startOnce(kind: Case, dataDir: string): Promise<Start> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', ATRIUM_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  let out = '';
  if (stopping) throw new Stopping();
  // Nothing awaits between this check and the spawn, so a signal cannot slip in between.
  const t0 = performance.now();
  const proc = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  current = proc;
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  let exited = false;
  proc.once('exit', () => (exited = true));

  let wallMs: number | null = null;
  while (performance.now() - t0 < READY_LIMIT_MS && !exited && !stopping) {
    if (await readyz(base)) {
      wallMs = Math.round(performance.now() - t0);
      break;
    }
    await sleep(POLL_MS);
  }
  // The "ready in" line is written right after listen; give it a moment to arrive.
  const lineBy = performance.now() + 5000;
  while (wallMs !== null && !/ready in \d+ ms/.test(out) && performance.now() < lineBy && !exited) await sleep(POLL_MS);
  const stopMs = await stopGroup(proc);
  current = undefined;
  if (wallMs === null) {
    if (stopping) throw new Stopping();
    throw new Error(`npm start ${exited ? `exited (code ${proc.exitCode})` : `was not ready within ${READY_LIMIT_MS} ms`} (${kind}, ${dataDir}):\n${out.slice(-4000)}`);
  }
  const m = /ready in (\d+) ms/.exec(out);
  return {
    case: kind,
    dataDir,
    wallMs,
    readyInMs: m ? Number(m[1]) : null,
    seeded: /loaded the demo catalogue/.test(out),
    stopMs,
    ended: proc.exitCode !== null ? `exit ${proc.exitCode}` : `signal ${proc.signalCode}`,
  };
}

async function cleanup() {
  stopping = true;
  const proc = current;
  if (proc) await stopGroup(proc);
  for (const dir of [...tempDirs]) removeDataDir(dir);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`startup: ${signal}, stopping the server under test and removing temp dirs\n`);
    stopping = true;
    cleanup().finally(() => process.exit(1));
  });
}

const starts: Start[] = [];
const note = (s: Start) =>
  process.stdout.write(
    `  ${s.case.padEnd(8)} ready (readyz 200) after ${s.wallMs} ms; server says "ready in ${s.readyInMs ?? '?'} ms"` +
      `${s.seeded ? '; demo catalogue loaded' : ''}; stopped in ${s.stopMs} ms (npm: ${s.ended})\n`,
  );
// Each round: a new data directory, a fresh start on it, then a second start on the same (now
// existing) directory. Under `npm run bench` (BENCH_DEADLINE, epoch ms) a round that would not
// finish before the run's deadline is skipped, so the figures measured so far are still written.
const deadline = Number(process.env.BENCH_DEADLINE ?? Infinity);
let cutShort = false;
try {
  let slowestRoundMs = 0;
  for (let i = 0; i < STARTS; i++) {
    // A round takes about what the slowest before it took (rounds vary with the machine's other
    // load); before the first, assume 25 s.
    if (Date.now() + Math.max(25_000, slowestRoundMs * 1.5) > deadline) {
      cutShort = true;
      process.stdout.write(`  stopping after ${i} of ${STARTS} rounds: the next would not finish before npm run bench's deadline\n`);
      break;
    }
    const t0 = Date.now();
    const dir = newDataDir();
    for (const kind of ['fresh', 'existing'] as const) {
      const s = await startOnce(kind, dir);
      starts.push(s);
      note(s);
    }
    removeDataDir(dir);
    slowestRoundMs = Math.max(slowestRoundMs, Date.now() - t0);
  }
} catch (e) {
  // Interrupted: the signal handler stops the server, removes the temp dirs and exits.
  if (e instanceof Stopping) await new Promise(() => {});
  throw e;
} finally {
  await cleanup();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
};
const summary = (kind: Case) => {
  const mine = starts.filter((s) => s.case === kind);
  if (!mine.length) return null;
  const wall = mine.map((s) => s.wallMs);
  const said = mine.map((s) => s.readyInMs).filter((x): x is number => x !== null);
  const med = median(wall);
  return {
    case: kind,
    starts: mine.length,
    wallMinMs: Math.min(...wall),
    wallMedianMs: med,
    readyInMinMs: said.length ? Math.min(...said) : null,
    readyInMedianMs: said.length ? median(said) : null,
    goalMs: GOALS[kind],
    met: med <= GOALS[kind],
    // A fresh directory must get the demo catalogue; an existing one must not get it again.
    seededAsExpected: mine.every((s) => s.seeded === (kind === 'fresh')),
  };
};
const rows = [summary('fresh'), summary('existing')].filter((r) => r !== null);
const loadavg = os.loadavg();
process.stdout.write(
  `\nStart-up benchmark — \`npm start\` (embedded PostgreSQL), ${rows[0]?.starts ?? 0} starts per case${cutShort ? ` (cut short by the deadline, ${STARTS} wanted)` : ''}, node ${process.version}, ${os.availableParallelism()} CPUs\n` +
    `wall = spawn of npm start → GET /readyz 200 (polled every ${POLL_MS} ms); "ready in" = the server's own line\n`,
);
for (const r of rows) {
  process.stdout.write(
    `${r.case === 'fresh' ? 'fresh data dir (initdb + migrate + demo seed)' : 'existing data dir (restart)'}\n` +
      `  wall      min ${r.wallMinMs} ms  median ${r.wallMedianMs} ms   goal ≤ ${r.goalMs} ms: ${r.met ? 'met' : 'MISSED'}\n` +
      `  ready in  min ${r.readyInMinMs ?? '?'} ms  median ${r.readyInMedianMs ?? '?'} ms${r.seededAsExpected ? '' : '   UNEXPECTED demo seeding'}\n`,
  );
}
process.stdout.write(`load average ${loadavg.map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'startup.json'),
  JSON.stringify({ at: new Date().toISOString(), cutShort, node: process.version, cpus: os.availableParallelism(), loadavg, pollMs: POLL_MS, rows, starts }, null, 2) + '\n',
);
if (!rows.length || rows.some((r) => !r.seededAsExpected)) process.exitCode = 1;
