// What the embedded PostgreSQL needs from the host before it can start (docs/adr/0012): the user it
// runs as, binaries that user can execute, a data directory it owns and can reach, and one clear
// sentence when any of that is impossible.
//
// PostgreSQL refuses to run as root, so as root it runs as the owner of an existing cluster or as
// the `atrium-pg` system user (created when missing; embedded-user.ts). That user cannot enter a private checkout
// (a 0700 directory such as /root or a `mktemp -d` directory), so as root the binaries run from a
// root-owned copy that every user may read but nobody else may write, and each directory above
// the cluster gets the search bit for others (o+x: enter by name, never list) when it lacks it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDbUser, isLegacyOwner, type DbUser } from './embedded-user.ts';

/** A startup failure of the embedded PostgreSQL, as one sentence: what is wrong and what to do. */
export class EmbeddedStartError extends Error {}

export type { DbUser } from './embedded-user.ts';

export const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Turns a file-system error on `file` into one clear sentence (read-only disk, permissions, full disk). */
export function explainFsError(e: unknown, file: string): Error {
  let code = (e as NodeJS.ErrnoException | undefined)?.code;
  // A recursive mkdir reports ENOENT where the real cause is the nearest existing parent
  // (read-only, not writable): ask that parent.
  if (code === 'ENOENT') {
    let dir = path.resolve(file);
    while (dir !== path.dirname(dir) && !fs.existsSync(dir)) dir = path.dirname(dir);
    try {
      fs.accessSync(dir, fs.constants.W_OK);
    } catch (cause) {
      code = (cause as NodeJS.ErrnoException).code;
    }
  }
  const who = isRoot() ? 'root' : os.userInfo().username;
  if (code === 'EROFS') return new EmbeddedStartError(`${file} is on a read-only file system: set ATRIUM_DATA_DIR to a writable directory (or DATABASE_URL to an external PostgreSQL).`);
  if (code === 'EACCES' || code === 'EPERM') return new EmbeddedStartError(`permission denied on ${file} for user ${who}: run atrium as the owner of the data directory, or set ATRIUM_DATA_DIR to a directory this user may write.`);
  if (code === 'ENOSPC') return new EmbeddedStartError(`no space left on the disk of ${file}: free some space and start again.`);
  if (code === 'ENOTDIR' || code === 'EEXIST') return new EmbeddedStartError(`${file} is not a directory: set ATRIUM_DATA_DIR to a directory.`);
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * The user PostgreSQL runs as: null when we are not root (it runs as ourselves). As root: the
 * owner of an existing cluster, else `atrium-pg` (embedded-user.ts), created when missing. A
 * cluster of the host's shared `postgres` user (an older atrium's) moves to `atrium-pg`: the
 * caller hands its files over once the old postmaster is stopped (adoptCluster).
 */
export function dbUserFor(clusterDir: string): DbUser | null {
  if (!isRoot()) {
    const st = statOrNull(clusterDir);
    const me = process.getuid?.();
    if (st && me !== undefined && st.uid !== me) {
      throw new EmbeddedStartError(`the database in ${clusterDir} belongs to user ${st.uid}, not to this user (${os.userInfo().username}): run atrium as that user, or set ATRIUM_DATA_DIR to a directory of your own.`);
    }
    return null;
  }
  const st = statOrNull(clusterDir);
  if (st && st.uid !== 0 && !isLegacyOwner(st.uid)) return { uid: st.uid, gid: st.gid, name: String(st.uid) };
  return ensureDbUser((m) => new EmbeddedStartError(m));
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

/** True when a user other than the owner (and not in its group) can reach `file` by path. */
function reachableByOthers(file: string): boolean {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const st = statOrNull(dir);
    if (!st || (st.mode & 0o001) === 0) return false;
    if (dir === path.dirname(dir)) return true;
  }
}

const CACHE_DIRS = () => ['/var/cache/atrium', path.join(os.tmpdir(), 'atrium-cache-root')];

/** A directory only root can write: ours when it is root-owned and not writable by group or others. */
function safeRootDir(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The directory of the PostgreSQL binaries (bin/, lib/, share/) to run. As root, when the
 * package's copy is out of reach of other users, a copy in a root-owned cache (made once per
 * package version, atomically: copied aside, then renamed; a marker file says it is complete).
 */
export function binariesFor(nativeDir: string, version: string, dbUser: DbUser | null): string {
  if (!dbUser || reachableByOthers(path.join(nativeDir, 'bin', 'postgres'))) return nativeDir;
  for (const cache of CACHE_DIRS()) {
    if (!safeRootDir(cache)) continue;
    const target = path.join(cache, `postgres-${version}`);
    if (fs.existsSync(path.join(target, '.complete'))) return target;
    // Per start, not per process: two starts in one process must not share (and delete) one copy.
    const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.cpSync(nativeDir, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      fs.chmodSync(tmp, 0o755);
      fs.writeFileSync(path.join(tmp, '.complete'), `${nativeDir}\n`, { mode: 0o644 });
      // A parallel start may have finished its copy meanwhile and be running from it: keep that
      // one. Only an incomplete leftover (a start killed while copying) is replaced.
      if (fs.existsSync(path.join(target, '.complete'))) {
        fs.rmSync(tmp, { recursive: true, force: true });
        return target;
      }
      fs.rmSync(target, { recursive: true, force: true });
      fs.renameSync(tmp, target);
      return target;
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true });
      // A parallel start may have won the rename; its copy is as good as ours.
      if (fs.existsSync(path.join(target, '.complete'))) return target;
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') throw explainFsError(e, cache);
    }
  }
  throw new EmbeddedStartError(`the PostgreSQL binaries in ${nativeDir} are out of reach of the database user (atrium-pg) and could not be copied to ${CACHE_DIRS().join(' or ')}: make one of those writable for root, or install the checkout in a directory other users may enter.`);
}

/**
 * As root: every directory above `dir` gets the search bit for others when it lacks it, so the
 * database user can reach its cluster; listing stays forbidden and files keep their own modes.
 */
export function openPathTo(dir: string, log: (m: string) => void): void {
  if (!isRoot()) return;
  const opened: string[] = [];
  for (let d = path.dirname(path.resolve(dir)); d !== path.dirname(d); d = path.dirname(d)) {
    const st = fs.statSync(d);
    if ((st.mode & 0o001) !== 0) continue;
    try {
      fs.chmodSync(d, (st.mode & 0o7777) | 0o001);
      opened.push(d);
    } catch (e) {
      throw new EmbeddedStartError(`the database user (atrium-pg) cannot enter ${d} and its mode could not be changed (${(e as NodeJS.ErrnoException).code}): allow others to enter it (chmod o+x), or set ATRIUM_DATA_DIR to a directory outside it.`);
    }
  }
  if (opened.length) log(`allowed other users to enter (not list) ${opened.join(', ')} so that PostgreSQL, run as a non-root user, reaches its data`);
}
