// A fresh database per test file, cloned from the migrated template that test/run.ts prepared.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.ts';

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the tests with \`npm test\` (test/run.ts prepares the database)`);
  return v;
}

export function adminUrl(): string {
  return env('ATRIUM_TEST_ADMIN_URL');
}

export function urlFor(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

export type TestDatabase = Database & { url: string; name: string; /** closes the pool and drops the database */ drop(): Promise<void> };

/**
 * Creates an empty, migrated database for this test file. Call `drop()` when done, e.g.
 * `after(() => db.drop())` at the top level of the test file.
 */
export async function freshDatabase(opts: { max?: number } = {}): Promise<TestDatabase> {
  const template = env('ATRIUM_TEST_TEMPLATE');
  const runPid = template.split('_')[2];
  const name = `atrium_t_${runPid}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  const url = urlFor(name);
  // Unused connections close after 5 s rather than 30: test files that share a process set up
  // one after the other before any of them runs (test/build.ts groupFiles), and each one's set-up
  // connection would otherwise stay open while dozens of others set up.
  const database = openDatabase(url, { max: opts.max ?? 10, idleMs: 5000 });
  const drop = async () => {
    await database.close().catch(() => {});
    const a = new pg.Client({ connectionString: adminUrl() });
    await a.connect();
    await a.query(`drop database if exists "${name}" with (force)`).catch(() => {});
    await a.end();
  };
  return { ...database, url, name, drop };
}
