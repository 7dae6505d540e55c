// `npm test`: starts one PostgreSQL for the whole run (embedded in a temp directory, or the
// server named by TEST_DATABASE_URL), migrates a template database once, then runs node's test
// runner over every test file. Each test file clones its own fresh database from the template
// (test/helpers/db.ts), so files run in parallel without seeing each other's data.
//
// `npm run test:stress` (`--stress`): the same set-up for the repetitions that the default run
// proves once (test/stress/, with ATRIUM_STRESS=1; see test/helpers/stress.ts) and the crash
// drills (every *.test.ts under the repository's test/drills/, which start their own PostgreSQL).
// Those files run one at a time: each is a load test of its own, and the drills time recoveries.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { installQueue } from '../src/jobs/queue.ts';
import { buildTests, type BuiltTests } from './build.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Scripts that tests start as server processes (test/helpers/programs.ts): compiled with the tests. */
const PROGRAMS = ['test/entry/race-node.ts'];

function findTests(dir: string, skip?: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return p === skip ? [] : findTests(p, skip);
      return e.name.endsWith('.test.ts') ? [p] : [];
    })
    .sort();
}

/**
 * Where the run's throw-away cluster lives: in memory (/dev/shm) where the machine has it. Each
 * test file clones the template database, and on a disk every clone and drop costs the kernel
 * about half a second (files written, then deleted and discarded); in memory a clone takes
 * milliseconds. ATRIUM_TEST_PG_DIR names another place.
 */
function clusterBase(): string {
  if (process.env.ATRIUM_TEST_PG_DIR) return process.env.ATRIUM_TEST_PG_DIR;
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    const shm = fs.statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize > 2 ** 30) return '/dev/shm';
  } catch {
    // no writable /dev/shm: the temporary directory
  }
  return os.tmpdir();
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function main() {
  const stress = process.argv[2] === '--stress';
  const args = process.argv.slice(stress ? 3 : 2);
  const stressDir = path.join(root, 'test/stress');
  // The client SDK's tests (packages/client/test) share this database setup: they run the real server in-process.
  const files = args.length > 0
    ? args.map((a) => path.resolve(a))
    : stress
      ? [...findTests(stressDir), ...findTests(path.join(root, '../../test/drills'))]
      : [...findTests(path.join(root, 'test'), stressDir), ...findTests(path.join(root, '../client/test'))];

  // The test files run compiled (test/build.ts), built while PostgreSQL starts. The stress run
  // (long files, one at a time) and ATRIUM_TEST_TSX=1 run the sources through tsx's loader, as
  // does a run whose compilation failed.
  const buildStart = Date.now();
  // Small test files run up to 64 to a process (test/build.ts groupFiles), sharing the cost of
  // loading the sources and compiling the route schemas; ATRIUM_TEST_GROUP=1 runs every file in a
  // process of its own. The suite keeps both cores busy throughout, so each process less is time
  // saved.
  const group = Number(process.env.ATRIUM_TEST_GROUP) || 64;
  const building: Promise<BuiltTests | undefined> = stress || process.env.ATRIUM_TEST_TSX === '1'
    ? Promise.resolve(undefined)
    : buildTests(root, files, PROGRAMS.map((p) => path.join(root, p)), group).then((b) => {
      console.log(`# ${files.length} test files compiled in ${Date.now() - buildStart} ms (test/build.ts)`);
      return b;
    }, (e: unknown) => {
      console.log(`# could not compile the tests (${e instanceof Error ? e.message : String(e)}): running them through tsx`);
      return undefined;
    });

  // The `atrium` command's bundle (bin/bundle.js), which the CLI and serve tests start: built here,
  // while PostgreSQL starts, rather than by the first of them (several at once on a fresh clone).
  const bundling = import('../bin/bundle.js')
    .then(async ({ buildBundle, freshBundle }) => { if (!freshBundle(root)) await buildBundle(root); })
    .catch((e: unknown) => console.log(`# could not build the atrium command's bundle (${e instanceof Error ? e.message : String(e)}): its tests run it from the sources`));

  const base = clusterBase();
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let tmp: string | undefined;
  if (adminUrl) {
    console.log(`# PostgreSQL under test: ${new URL(adminUrl).host} (TEST_DATABASE_URL)`);
  } else {
    tmp = fs.mkdtempSync(path.join(base, 'atrium-test-'));
    fs.chmodSync(tmp, 0o755);
    const server = await startEmbedded({ dir: path.join(tmp, 'pg'), persistent: false });
    adminUrl = server.url;
    stop = server.stop;
    console.log(`# PostgreSQL under test: embedded (port ${server.port}, in ${path.dirname(tmp)})`);
  }
  if (process.env.TEST_REDIS_URL) console.log(`# Redis under test: ${new URL(process.env.TEST_REDIS_URL).host}`);
  else console.log('# TEST_REDIS_URL is not set: tests that need Redis are skipped');

  const template = `atrium_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  const tplDb = openDatabase(withDatabase(adminUrl, template), { max: 2 });
  await runMigrations(tplDb.pool, { installQueue });
  await tplDb.close();

  const built = await building;
  await bundling;
  const loader = built ? ['--enable-source-maps'] : ['--import', 'tsx'];

  // One test file more than there are cores (at most 4): files spend part of their time waiting
  // (job queues, mail and webhook retries, browsers, child servers), and on two cores a third file
  // fills those waits. ATRIUM_TEST_CONCURRENCY overrides it (to measure another).
  const concurrency = Number(process.env.ATRIUM_TEST_CONCURRENCY) || (stress ? 1 : Math.min(4, os.availableParallelism() + 1));
  const child = spawn(
    process.execPath,
    [
      ...loader, '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', '--test-reporter-destination=stdout',
      // ATRIUM_TEST_TIMES=<file> also writes each test file's wall time there (slowest first with sort -rn).
      ...(process.env.ATRIUM_TEST_TIMES
        ? ['--test-reporter', path.join(root, 'test/reporters/file-times.mjs'), '--test-reporter-destination', process.env.ATRIUM_TEST_TIMES]
        : []),
      ...(built?.files ?? files),
    ],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        ATRIUM_TEST_ADMIN_URL: adminUrl,
        ATRIUM_TEST_TEMPLATE: template,
        // The tests' own temporary directories (data directories, embedded clusters of the serve
        // and backup tests) in memory too, where the run's cluster is.
        ...(base === '/dev/shm' ? { TMPDIR: base } : {}),
        ...(built ? { ATRIUM_TEST_PROGRAMS: JSON.stringify(Object.fromEntries(Object.entries(built.programs).map(([src, out]) => [path.relative(root, src), out]))) } : {}),
        ...(stress ? { ATRIUM_STRESS: '1' } : {}),
        // Catalogue statements kept by shape are rendered afresh as well and compared
        // (src/db/repositories/catalog/shapes.ts#shaped): a shape key that misses something fails a test.
        ATRIUM_CHECK_STATEMENTS: '1',
        // '@atrium/client' resolves to its TypeScript sources in tests (packages/client/package.json
        // "atrium-source" condition), so they test what is in the tree, not a stale dist/ build.
        NODE_OPTIONS: [process.env.NODE_OPTIONS, '--conditions=atrium-source'].filter(Boolean).join(' '),
      },
      cwd: root,
    },
  );
  const code: number = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));

  try {
    await admin.query(`drop database if exists "${template}" with (force)`);
    const leftovers = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`atrium_t_${process.pid}_%`],
    );
    for (const r of leftovers.rows) await admin.query(`drop database if exists "${r.datname}" with (force)`);
  } finally {
    await admin.end();
    await stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    built?.remove();
  }
  process.exit(code);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
