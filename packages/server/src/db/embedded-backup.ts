// Backup and restore of the embedded PostgreSQL with nothing but the install itself
// (docs/adr/0012, docs/operations.md "Backup and restore"): the embedded package ships no pg_dump,
// and a host's older pg_dump cannot read a PostgreSQL 17 server. So a backup is a physical base
// backup, as pg_basebackup makes it: under pg_backup_start/pg_backup_stop, with a temporary
// replication slot holding the WAL, the cluster's files plus the WAL written meanwhile and the
// backup_label, in a gzip'd tar. Restoring unpacks it into an empty data directory; the first
// start replays that WAL and the database is exactly as it was when the backup ended. The same
// PostgreSQL binaries read it, so there is no version skew. The server keeps serving meanwhile.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { end, extract, fileEntry, header } from './tar.ts';

const ROOT = 'pg';
// Contents that a base backup leaves out (PostgreSQL docs, "Backing Up the Data Directory"): they
// are rebuilt at start; the directories themselves are kept.
const EMPTY_DIRS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'backup_label.old', 'tablespace_map', 'pg_internal.init']);

async function* walk(dir: string, rel: string): AsyncGenerator<Buffer> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const abs = path.join(dir, e.name);
    const name = `${rel}/${e.name}`;
    if (e.name.startsWith('pgsql_tmp') || SKIP_FILES.has(e.name)) continue;
    if (e.isDirectory()) {
      const st = fs.statSync(abs);
      yield header(`${name}/`, 'dir', 0, st.mode, st.mtimeMs);
      if (rel === ROOT && EMPTY_DIRS.has(e.name)) continue;
      yield* walk(abs, name);
    } else if (e.isFile()) {
      yield* fileEntry(name, abs);
    }
  }
}

export interface BackupResult {
  bytes: number;
  startLsn: string;
  stopLsn: string;
}

/** A backup never replaces a file: `file` is linked in, which fails when anything is there already. */
export class BackupExists extends Error {}

/**
 * Publishes the finished `tmp` as `file` without replacing or following anything at `file`:
 * link(2) fails with EEXIST on any entry, a dangling symbolic link included. On a file system
 * without hard links, a rename after a last check.
 */
function publish(tmp: string, file: string): void {
  try {
    fs.linkSync(tmp, file);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BackupExists(`${file} exists already: choose a new file name (a backup never overwrites one).`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
  }
  if (fs.existsSync(file) || isLink(file)) throw new BackupExists(`${file} exists already: choose a new file name (a backup never overwrites one).`);
  fs.renameSync(tmp, file);
}
const isLink = (p: string) => {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};

/**
 * Writes a consistent backup of the running cluster in `clusterDir` to `file` (mode 0600). It is
 * written in a private directory made beside `file` (mkdtemp: a new random name, mode 0700)
 * with O_EXCL, so no file or symbolic link placed there beforehand is followed or overwritten,
 * then linked into place.
 */
export async function backupCluster(adminUrl: string, clusterDir: string, file: string): Promise<BackupResult> {
  const work = fs.mkdtempSync(path.join(path.dirname(file), '.atrium-backup-'));
  const tmp = path.join(work, 'backup.partial');
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'atrium-backup' });
  try {
    await client.connect();
    // The slot keeps every WAL segment from here on until this session ends.
    await client.query(`select pg_create_physical_replication_slot($1, true, true)`, [`atrium_backup_${process.pid}`]);
    const start = (await client.query<{ lsn: string; wal: string }>(`select lsn::text, pg_walfile_name(lsn) as wal from pg_backup_start('atrium backup', true) as lsn`)).rows[0]!;
    let stop: { lsn: string; labelfile: string; spcmapfile: string } | undefined;
    let stopWal = '';
    async function* archive(): AsyncGenerator<Buffer> {
      const meta = Buffer.from(JSON.stringify({ format: 'atrium-embedded-backup/1', created_at: new Date().toISOString(), start_lsn: start.lsn }));
      yield header('atrium-backup.json', 'file', meta.length, 0o600, Date.now());
      yield Buffer.concat([meta, Buffer.alloc((512 - (meta.length % 512)) % 512)]);
      yield* walk(clusterDir, ROOT);
      stop = (await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(`select lsn::text, labelfile, spcmapfile from pg_backup_stop(false)`)).rows[0]!;
      stopWal = (await client.query<{ wal: string }>(`select pg_walfile_name($1::pg_lsn) as wal`, [stop.lsn])).rows[0]!.wal;
      const label = Buffer.from(stop.labelfile);
      yield header(`${ROOT}/backup_label`, 'file', label.length, 0o600, Date.now());
      yield Buffer.concat([label, Buffer.alloc((512 - (label.length % 512)) % 512)]);
      // The WAL from the backup's start to its end (pg_backup_stop switched to a new segment, so the last one is complete).
      const wal = fs.readdirSync(path.join(clusterDir, 'pg_wal')).filter((n) => /^[0-9A-F]{24}$/.test(n) && n.slice(8) >= start.wal.slice(8) && n.slice(8) <= stopWal.slice(8)).sort();
      if (!wal.includes(start.wal) || !wal.includes(stopWal)) throw new Error(`the WAL of the backup (${start.wal} to ${stopWal}) is incomplete`);
      for (const n of wal) yield* fileEntry(`${ROOT}/pg_wal/${n}`, path.join(clusterDir, 'pg_wal', n));
      yield end();
    }
    await pipeline(Readable.from(archive()), zlib.createGzip({ level: 6 }), fs.createWriteStream(tmp, { mode: 0o600, flags: 'wx' }));
    publish(tmp, file);
    return { bytes: fs.statSync(file).size, startLsn: start.lsn, stopLsn: stop!.lsn };
  } finally {
    await client.end().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Unpacks a backup into `clusterDir`, which must not exist or be empty: into `<dir>.restore`
 * first, renamed into place only when complete. Returns the backup's metadata.
 */
export async function unpackBackup(file: string, clusterDir: string, chown: (dir: string) => void): Promise<{ created_at: string }> {
  // A new private directory (mkdtemp), never one that may have been placed there beforehand.
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true });
  const work = fs.mkdtempSync(`${clusterDir}.restore-`);
  try {
    await extract(fs.createReadStream(file).pipe(zlib.createGunzip()), work);
    const metaFile = path.join(work, 'atrium-backup.json');
    if (!fs.existsSync(metaFile) || !fs.existsSync(path.join(work, ROOT, 'PG_VERSION')) || !fs.existsSync(path.join(work, ROOT, 'backup_label'))) {
      throw new Error('not an atrium backup');
    }
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as { format: string; created_at: string };
    if (meta.format !== 'atrium-embedded-backup/1') throw new Error(`unknown backup format ${meta.format}`);
    fs.chmodSync(path.join(work, ROOT), 0o700);
    chown(path.join(work, ROOT));
    if (fs.existsSync(clusterDir)) fs.rmdirSync(clusterDir);
    fs.renameSync(path.join(work, ROOT), clusterDir);
    return meta;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
