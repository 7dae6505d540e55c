// The crash drills, on demand (`npm run drills` in packages/server) and in CI (.ci/run, after the
// suites). They start their own embedded PostgreSQL in a temp directory, so they touch nothing
// else; the drill that restarts the machine's PostgreSQL 15 runs only with
// ATRIUM_DRILL_RESTART_SYSTEM_PG=1 (CI sets it once nothing else uses that server).
// Prints one line per check and `drills: N passed, N failed`; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startEmbedded, type EmbeddedServer } from '../../src/db/embedded.ts';
import { crashDrill } from './crash.ts';
import { connectionsDrill } from './connections.ts';
import { dbRestartDrill, type DbControl } from './db-restart.ts';
import { recoveryDrill } from './recovery.ts';
import { dbKill, diskFull, killDrill, outageDrill } from './jobs.ts';
import { drillDatabase, sleep, type Check } from './lib.ts';

function systemPg(): DbControl {
  const version = process.env.ATRIUM_DRILL_PG_VERSION ?? fs.readdirSync('/etc/postgresql').sort().at(-1)!;
  const ctl = (action: string, ...extra: string[]) =>
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', action, ...extra], { stdio: 'inherit' });
  return {
    label: `system PostgreSQL ${version}`,
    // stop, pause, start (rather than `restart`): the server must be seen answering 503 in between.
    stop: async () => void ctl('stop'),
    async start() {
      ctl('start');
      for (let i = 0; i < 30; i++) {
        try {
          execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432'], { stdio: 'ignore' });
          return;
        } catch {
          await sleep(500);
        }
      }
    },
  };
}

/** (b) of jobs.ts: a PostgreSQL of its own on a 192 MB tmpfs (needs root to mount), filled up. */
async function diskFullDrill(tmp: string): Promise<Check[]> {
  const mnt = path.join(tmp, 'small-disk');
  fs.mkdirSync(mnt);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=192m,mode=0755', 'tmpfs', mnt], { stdio: 'ignore' });
  } catch {
    console.log('(the disk-full job drill needs to mount a tmpfs, as root: skipped)');
    return [];
  }
  const dir = path.join(mnt, 'pg');
  const port = await freePort();
  let pg: EmbeddedServer | undefined;
  try {
    pg = await startEmbedded({ dir, port, persistent: true });
    const control: DbControl = {
      label: 'embedded PostgreSQL on a small disk',
      stop: async () => {
        await pg?.stop();
        pg = undefined;
      },
      start: async () => {
        // Started again only if it stopped (a PANIC on a WAL write to the full disk).
        const alive = await import('pg').then(async ({ default: p }) => {
          const c = new p.Client({ connectionString: pg?.url });
          return c.connect().then(() => c.end().then(() => true), () => false);
        });
        if (!alive) {
          await pg?.stop().catch(() => undefined);
          pg = await startEmbedded({ dir, port, persistent: true });
        }
      },
    };
    const db = await drillDatabase(pg.url, 'atrium_drill_jobs_diskfull');
    const checks = (await outageDrill(db, 'disk full', diskFull(mnt, control))).list;
    await db.drop();
    return checks;
  } finally {
    await pg?.stop().catch(() => undefined);
    execFileSync('umount', ['-l', mnt], { stdio: 'ignore' });
  }
}

export async function runDrills(): Promise<Check[]> {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-drill-'));
  fs.chmodSync(tmp, 0o755);
  const dir = path.join(tmp, 'pg');
  const port = await freePort();
  let pg: EmbeddedServer | undefined = await startEmbedded({ dir, port, persistent: true });
  const checks: Check[] = [];
  // ATRIUM_DRILLS=crash, =connections, =recovery or =restart runs some of them (default: all but
  // the job drills, which run only when named: =jobs; test/drills/jobs.test.ts).
  const only = process.env.ATRIUM_DRILLS;
  try {
    if (!only || only.includes('crash')) {
      const a = await drillDatabase(pg.url, 'atrium_drill_crash');
      checks.push(...(await crashDrill(a)).list);
      await a.drop();
    }
    if (!only || only.includes('connections')) {
      const c = await drillDatabase(pg.url, 'atrium_drill_connections');
      checks.push(...(await connectionsDrill(c)).list);
      await c.drop();
    }
    if (!only || only.includes('recovery')) checks.push(...(await recoveryDrill()).list);
    if (!only || only.includes('restart')) {
      const b = await drillDatabase(pg.url, 'atrium_drill_restart');
      const embedded: DbControl = {
        label: 'embedded PostgreSQL',
        stop: async () => {
          await pg!.stop();
          pg = undefined;
        },
        start: async () => {
          pg = await startEmbedded({ dir, port, persistent: true });
        },
      };
      checks.push(...(await dbRestartDrill(b, embedded)).list);
      await b.drop();

      if (process.env.ATRIUM_DRILL_RESTART_SYSTEM_PG === '1') {
        const admin = process.env.ATRIUM_DRILL_SYSTEM_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
        const c = await drillDatabase(admin, 'atrium_drill_system_restart');
        checks.push(...(await dbRestartDrill(c, systemPg())).list);
        await c.drop();
      } else {
        console.log('(the restart drill on the machine\'s PostgreSQL runs only with ATRIUM_DRILL_RESTART_SYSTEM_PG=1)');
      }
    }
    if (only?.includes('jobs')) {
      const embedded: DbControl = {
        label: 'embedded PostgreSQL',
        stop: async () => {
          await pg!.stop();
          pg = undefined;
        },
        start: async () => {
          pg = await startEmbedded({ dir, port, persistent: true });
        },
      };
      // ATRIUM_DRILLS=jobs runs the three; jobs-dbkill, jobs-diskfull or jobs-sigkill one of them.
      const part = (name: string) => only.includes('jobs') && (!/jobs-/.test(only) || only.includes(`jobs-${name}`));
      if (part('dbkill')) {
        const k = await drillDatabase(pg!.url, 'atrium_drill_jobs_dbkill');
        checks.push(...(await outageDrill(k, 'database killed', dbKill(embedded))).list);
        await k.drop();
      }
      if (part('diskfull')) checks.push(...(await diskFullDrill(tmp)));
      if (part('sigkill')) {
        const s = await drillDatabase(pg!.url, 'atrium_drill_jobs_sigkill');
        checks.push(...(await killDrill(s)).list);
        await s.drop();
      }
    }
  } finally {
    await pg?.stop().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const failed = checks.filter((c) => !c.ok);
  console.log(`drills: ${checks.length - failed.length} passed, ${failed.length} failed (${Math.round((Date.now() - started) / 1000)} s)`);
  for (const f of failed) console.log(`  FAILED ${f.drill}: ${f.name} — ${f.detail}`);
  return checks;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runDrills()
    .then((checks) => process.exit(checks.every((c) => c.ok) ? 0 : 1))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
