// The OS user the embedded PostgreSQL runs as when atrium runs as root (docs/adr/0012): a user of
// its own, `atrium-pg`, a system user without login, created when missing. Not the host's shared
// `postgres`: the files of a cluster owned by `postgres` are open to the superuser of any other
// PostgreSQL on the host (`COPY … TO PROGRAM`, `pg_read_file`) and to anyone who becomes
// `postgres`. A cluster made by an older atrium is owned by `postgres`; its first start hands its
// files to `atrium-pg` (adoptCluster), with a log line.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface DbUser {
  uid: number;
  gid: number;
  name: string;
}

export const DB_USER = 'atrium-pg';
/** The user older versions ran the cluster as. */
export const LEGACY_USER = 'postgres';

export function lookupUser(name: string): DbUser | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const uid = id('-u');
    const gid = id('-g');
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid, name } : null;
  } catch {
    return null;
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** `atrium-pg`, created (group and user, no home, no shell) when missing. Root only. */
export function ensureDbUser(onMissing: (message: string) => Error): DbUser {
  // Parallel first starts (the test harness, `--workers`) may race on /etc/passwd's lock: the
  // loser's useradd fails, and the user exists a moment later.
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = lookupUser(DB_USER);
    if (found) return found;
    const quietly = (cmd: string, args: string[]) => {
      try {
        execFileSync(cmd, args, { stdio: 'ignore' });
      } catch {
        // the group may exist already; the lookup above says whether the user came to be
      }
    };
    quietly('groupadd', ['--system', DB_USER]);
    quietly('useradd', ['--system', '-g', DB_USER, '-M', '-d', '/nonexistent', '-s', '/usr/sbin/nologin', '-c', 'atrium embedded PostgreSQL', DB_USER]);
    if (!lookupUser(DB_USER)) pause(100 * (attempt + 1));
  }
  const created = lookupUser(DB_USER);
  if (!created) throw onMissing(`PostgreSQL cannot run as root and there is no \`${DB_USER}\` user to run it as (useradd failed): create one (useradd --system --no-create-home --shell /usr/sbin/nologin ${DB_USER}), or run atrium as a non-root user.`);
  return created;
}

/** True when `uid` is the host's `postgres` user, which an older atrium ran the cluster as. */
export function isLegacyOwner(uid: number): boolean {
  const legacy = lookupUser(LEGACY_USER);
  return legacy !== null && legacy.uid === uid && legacy.name !== DB_USER;
}

/**
 * Hands a cluster owned by the legacy user to `user`: every file the legacy user owns below
 * `dir` (symbolic links themselves, never what they point to). Runs with the postmaster stopped.
 */
export function adoptCluster(dir: string, user: DbUser, log: (m: string) => void): void {
  const st = fs.lstatSync(dir);
  if (st.uid === user.uid || !isLegacyOwner(st.uid)) return;
  const from = st.uid;
  let n = 0;
  const walk = (p: string) => {
    const s = fs.lstatSync(p);
    if (s.uid === from) {
      fs.lchownSync(p, user.uid, user.gid);
      n++;
    }
    if (s.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  log(`the database in ${dir} belonged to the shared \`${LEGACY_USER}\` user; handed its ${n} files to \`${user.name}\`, the user it runs as from now on`);
}
