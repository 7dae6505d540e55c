// The PostgreSQL processes of the embedded mode: initdb, the postmaster (spawned in its own
// process group, so a Ctrl-C meant for atrium does not stop the database behind its back), and an
// orphaned postmaster left by a killed atrium (docs/adr/0012).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EmbeddedStartError, type DbUser } from './embedded-host.ts';

const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 60_000;

function ids(user: DbUser | null) {
  return user ? { uid: user.uid, gid: user.gid } : {};
}

/** The FATAL/ERROR line of PostgreSQL's output, else its last line. */
function reason(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const fatal = lines.find((l) => /\b(FATAL|PANIC|ERROR):/.test(l)) ?? lines.at(-1) ?? 'no output';
  return fatal.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
}

function spawnError(e: NodeJS.ErrnoException, file: string, user: DbUser | null): EmbeddedStartError {
  const as = user ? ` as user ${user.name}` : '';
  return new EmbeddedStartError(`could not run ${file}${as} (${e.code ?? e.message}): reinstall the dependencies (npm ci), or see docs/operations.md, "Embedded mode security model".`);
}

/** Runs a program to completion; rejects with one sentence when it cannot start or fails. */
export function run(file: string, args: string[], user: DbUser | null, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...ids(user), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    child.stdout!.on('data', (d) => (out = (out + d).slice(-8000)));
    child.stderr!.on('data', (d) => (out = (out + d).slice(-8000)));
    child.on('error', (e) => reject(spawnError(e, file, user)));
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new EmbeddedStartError(`${what} failed (${signal ?? `exit ${code}`}): ${reason(out)}`)),
    );
  });
}

export interface Postmaster {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Starts the postmaster and resolves once it accepts connections. */
export function startPostmaster(
  bin: string,
  dir: string,
  port: number,
  user: DbUser | null,
  log: (line: string) => void,
): Promise<Postmaster> {
  const args = [
    '-D', dir, '-p', String(port),
    // TCP on loopback only, no unix socket (it would sit in a shared directory); every
    // connection needs the per-install password (scram-sha-256, pg_hba.conf written at start).
    '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
    '-c', 'max_connections=200', '-c', 'lc_messages=C', '-c', 'password_encryption=scram-sha-256',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, 'postgres'), args, {
      ...ids(user),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    let out = '';
    let ready = false;
    const exited = new Promise<void>((r) => child.once('close', () => r()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new EmbeddedStartError(`PostgreSQL did not become ready within ${START_TIMEOUT_MS / 1000} s: ${reason(out)}`));
    }, START_TIMEOUT_MS);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      for (const line of d.split('\n')) if (line.trim()) log(line.trim());
      if (ready) return;
      out = (out + d).slice(-8000);
      if (out.includes(READY)) {
        ready = true;
        clearTimeout(timer);
        resolve({ child, exited });
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(spawnError(e, path.join(bin, 'postgres'), user));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (ready) return;
      const why = reason(out);
      const hint = /Address already in use/.test(why) ? `: port ${port} is taken by another program` : '';
      reject(new EmbeddedStartError(`PostgreSQL exited while starting (${signal ?? `exit ${code}`}): ${why}${hint}`));
    });
  });
}

/** A zombie (exited, not yet reaped by its new parent, e.g. a container's init) counts as gone. */
function zombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !zombie(pid);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/** Fast shutdown, then immediate, then SIGKILL: each step bounded in time. */
export async function stopPid(pid: number): Promise<void> {
  for (const [signal, ms] of [['SIGINT', 20_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await waitGone(pid, ms)) return;
  }
}

/**
 * A postmaster still running on `dir` after its atrium was killed (kill -9 leaves it behind) is
 * stopped, so this process can start and supervise its own. It is recognised as ours by its
 * working directory (a postmaster chdirs into its data directory) or, without /proc, by the data
 * directory its postmaster.pid names. A pid file naming some other live process is stale.
 */
export async function stopOrphan(dir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  let ours: boolean;
  try {
    ours = fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir);
  } catch {
    ours = fs.existsSync('/proc/self') ? false : lines[1] === dir;
  }
  if (!ours) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  log(`stopping the PostgreSQL (pid ${pid}) that a previous atrium process left running on ${dir}`);
  await stopPid(pid);
  if (alive(pid)) throw new EmbeddedStartError(`the PostgreSQL left running on ${dir} (pid ${pid}) does not stop: stop it (kill ${pid}) and start again.`);
}
