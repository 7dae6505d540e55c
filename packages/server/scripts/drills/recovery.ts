// Drill (d): crash recovery of the embedded mode (docs/adr/0012), with
// `atrium serve` on its own embedded PostgreSQL in a private (0700) data directory:
// kill -9 of the server leaves its PostgreSQL running; the next start stops that orphan and serves
// /readyz 200; a PostgreSQL killed under the running server is restarted (503 meanwhile, then 200);
// SIGTERM stops server and database; and SIGTERM to `npm start` (npm does not pass it on) does too.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Checks, sleep } from './lib.ts';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');

interface Proc {
  proc: ChildProcess;
  base: string;
  output(): string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(ms: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(200);
  }
  return check();
}

function start(cmd: string, args: string[], cwd: string, dataDir: string): Promise<Proc> {
  const env: NodeJS.ProcessEnv = { ...process.env, ATRIUM_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const proc = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "ready" within 90 s:\n${out}`)), 90_000);
    const read = (b: Buffer) => {
      out += b.toString();
      const m = /ready in \d+ ms on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, base: m[1]!, output: () => out });
      }
    };
    proc.stdout!.on('data', read);
    proc.stderr!.on('data', read);
    proc.once('exit', (code) => reject(new Error(`${cmd} exited with ${code}:\n${out}`)));
  });
}

const serve = (dataDir: string) => start(process.execPath, ['bin/atrium.js', 'serve', '--port', '0'], SERVER_ROOT, dataDir);
const readyz = async (base: string) => (await fetch(`${base}/readyz`).catch(() => ({ status: 0 }))).status;
const postmaster = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const exited = (p: ChildProcess) => new Promise<number | null>((r) => (p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.once('exit', (c) => r(c))));

export async function recoveryDrill(): Promise<Checks> {
  const checks = new Checks('recovery');
  console.log('drill: kill -9 of atrium serve and of its embedded PostgreSQL; SIGTERM to npm start');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-recovery-')); // mode 0700
  const dataDir = path.join(tmp, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  try {
    let s = await serve(dataDir);
    checks.check('serves from a 0700 data directory', (await readyz(s.base)) === 200);
    const orphan = postmaster(dataDir);
    s.proc.kill('SIGKILL');
    await exited(s.proc);
    checks.check('kill -9 of the server leaves its PostgreSQL running', alive(orphan), `pid ${orphan}`);

    s = await serve(dataDir);
    checks.check('the next start serves: /readyz 200', (await readyz(s.base)) === 200);
    checks.check('the next start stopped the orphaned PostgreSQL', !alive(orphan) && /stopping the PostgreSQL \(pid \d+\) that a previous atrium process left running/.test(s.output()), s.output().slice(0, 300));

    const pm = postmaster(dataDir);
    process.kill(pm, 'SIGKILL');
    const down = await until(5_000, async () => (await readyz(s.base)) === 503);
    checks.check('/readyz is 503 while its PostgreSQL is down', down);
    const back = await until(60_000, async () => (await readyz(s.base)) === 200);
    checks.check('the dead PostgreSQL is restarted and /readyz is 200 again', back && postmaster(dataDir) !== pm);

    const pm2 = postmaster(dataDir);
    s.proc.kill('SIGTERM');
    const code = await exited(s.proc);
    checks.check('SIGTERM: exit 0, PostgreSQL stopped, lock removed', code === 0 && !alive(pm2) && !fs.existsSync(path.join(dataDir, 'atrium.lock')), `exit ${code}`);

    const npm = await start('npm', ['start', '--silent'], REPO_ROOT, dataDir);
    const server = (JSON.parse(fs.readFileSync(path.join(dataDir, 'atrium.lock'), 'utf8')) as { pid: number }).pid;
    const pm3 = postmaster(dataDir);
    npm.proc.kill('SIGTERM');
    const stopped = await until(20_000, () => !alive(server) && !alive(pm3));
    checks.check('SIGTERM to npm start stops the server and its PostgreSQL', stopped && !fs.existsSync(path.join(dataDir, 'atrium.lock')), `server ${alive(server) ? 'alive' : 'gone'}, postgres ${alive(pm3) ? 'alive' : 'gone'}`);
  } finally {
    // Whatever failed above: no server or PostgreSQL of this drill survives it.
    try {
      const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'atrium.lock'), 'utf8')) as { pid: number };
      if (alive(lock.pid)) process.kill(lock.pid, 'SIGKILL');
    } catch {
      // no lock: no server
    }
    try {
      const pm = postmaster(dataDir);
      if (alive(pm)) process.kill(pm, 'SIGINT');
      await until(10_000, () => !alive(pm));
    } catch {
      // no postmaster.pid: stopped
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return checks;
}
