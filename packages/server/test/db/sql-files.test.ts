// The repeatable migrations of src/db/sql/ (src/db/sql-files.ts): a file is applied when its text
// changed since it was last applied, its hash recorded, unchanged files skipped; `-- depends:`
// orders files; a failing file is named and leaves nothing behind. And a database migrated before
// the runner knew these files (no atrium_sql_objects) upgrades in place.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runMigrations, sqlFolder } from '../../src/db/migrate.ts';
import { applySqlFiles, readSqlFiles } from '../../src/db/sql-files.ts';
import { installQueue } from '../../src/jobs/queue.ts';
import { freshDatabase } from '../helpers/db.ts';
import { sqlBodyProblems } from './sqlBodies.ts';

const database = await freshDatabase({ max: 3 });
const client = await database.pool.connect();
after(async () => {
  client.release();
  await database.drop();
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-sql-files-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, `${name}.sql`), text);
const fn = (name: string, value: string) => `CREATE OR REPLACE FUNCTION ${name}() RETURNS int LANGUAGE sql AS $$ SELECT ${value} $$;\n`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const recorded = async (name: string) =>
  (await client.query<{ sha256: string }>('select sha256 from atrium_sql_objects where name = $1', [name])).rows[0]?.sha256;
const call = async (name: string) => (await client.query<{ v: number }>(`select ${name}() as v`)).rows[0]!.v;

test('the migrated template recorded every file of src/db/sql/ with its hash', async () => {
  const rows = await client.query<{ name: string; sha256: string }>('select name, sha256 from atrium_sql_objects order by name');
  const files = readSqlFiles(sqlFolder);
  assert.ok(files.length >= 20);
  assert.deepEqual(rows.rows, files.map((f) => ({ name: f.name, sha256: f.sha256 })).sort((a, b) => a.name.localeCompare(b.name)));
  assert.deepEqual(await applySqlFiles(client), [], 'nothing to apply again');
});

test('a file is applied when its text changes, its hash recorded; unchanged files are skipped', async () => {
  write('t_one', fn('t_one', '1'));
  write('t_two', fn('t_two', '2'));
  assert.deepEqual(await applySqlFiles(client, dir), ['t_one', 't_two']);
  assert.equal(await recorded('t_one'), sha(fn('t_one', '1')));
  assert.equal(await call('t_one'), 1);

  assert.deepEqual(await applySqlFiles(client, dir), [], 'unchanged: skipped');

  write('t_one', fn('t_one', '11'));
  assert.deepEqual(await applySqlFiles(client, dir), ['t_one'], 'only the changed file');
  assert.equal(await call('t_one'), 11);
  assert.equal(await recorded('t_one'), sha(fn('t_one', '11')));
  assert.equal(await recorded('t_two'), sha(fn('t_two', '2')));
});

test('control: without its recorded hash a file is applied again, so the skip is the hash', async () => {
  await client.query(`update atrium_sql_objects set sha256 = 'stale' where name = 't_two'`);
  assert.deepEqual(await applySqlFiles(client, dir), ['t_two']);
  assert.equal(await recorded('t_two'), sha(fn('t_two', '2')));
});

test('files run in name order, each just after the files its `-- depends:` lines name', async () => {
  const order = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-sql-order-'));
  after(() => fs.rmSync(order, { recursive: true, force: true }));
  const put = (name: string, text: string) => fs.writeFileSync(path.join(order, `${name}.sql`), text);
  // a_view selects from z_base's function at creation: it must come after it.
  put('a_view', '-- A view on z_base.\n-- depends: z_base\nCREATE OR REPLACE VIEW a_view AS SELECT z_base() AS v;\n');
  put('m_plain', fn('m_plain', '3'));
  put('z_base', fn('z_base', '4'));
  assert.deepEqual(readSqlFiles(order).map((f) => f.name), ['z_base', 'a_view', 'm_plain']);
  assert.deepEqual(await applySqlFiles(client, order), ['z_base', 'a_view', 'm_plain']);
  assert.equal((await client.query<{ v: number }>('select v from a_view')).rows[0]!.v, 4);

  // Control: without the line, name order puts the view first and it cannot be created.
  put('a_view', 'CREATE OR REPLACE VIEW a_view AS SELECT z_base2() AS v;\n');
  put('z_base', fn('z_base2', '5'));
  await assert.rejects(applySqlFiles(client, order), /db\/sql\/a_view\.sql: function z_base2\(\) does not exist/);

  put('m_plain', `-- depends: a_view\n${fn('m_plain', '3')}`);
  put('a_view', '-- depends: m_plain\nCREATE OR REPLACE VIEW a_view AS SELECT 1 AS v;\n');
  assert.throws(() => readSqlFiles(order), /dependency cycle a_view -> m_plain -> a_view/);
  put('a_view', '-- depends: nowhere\nCREATE OR REPLACE VIEW a_view AS SELECT 1 AS v;\n');
  assert.throws(() => readSqlFiles(order), /a_view\.sql depends on nowhere, which has no file/);
});

test('a failing file is named, keeps nothing of itself, and the files before it stay applied', async () => {
  write('t_one', fn('t_one', '12'));
  write('t_three', `${fn('t_three', '3')}SELECT 1/0;\n`);
  await assert.rejects(applySqlFiles(client, dir), /db\/sql\/t_three\.sql: division by zero/);
  assert.equal(await call('t_one'), 12);
  assert.equal(await recorded('t_one'), sha(fn('t_one', '12')));
  assert.equal(await recorded('t_three'), undefined);
  const exists = await client.query(`select 1 from pg_proc where proname = 't_three'`);
  assert.equal(exists.rowCount, 0);
  fs.rmSync(path.join(dir, 't_three.sql'));
});

test('a database migrated before these files were tracked upgrades in place: all re-applied, bodies unchanged', async () => {
  await client.query('drop view if exists a_view');
  await client.query('drop function if exists t_one(), t_two(), m_plain(), z_base(), z_base2()');
  await client.query('drop table atrium_sql_objects');
  await runMigrations(database.pool, { installQueue });
  const n = await client.query<{ n: number }>('select count(*)::int as n from atrium_sql_objects');
  assert.equal(n.rows[0]!.n, readSqlFiles(sqlFolder).length);
  assert.deepEqual(await sqlBodyProblems(client), []);
});
