// Every function, trigger and view of the migrated database has one file in src/db/sql/ and its
// body there is the one the database runs (src/db/sql/README.md). Control runs show the check
// sees a body edited in the database, an edited file, a missing file and a surplus object.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sqlFolder } from '../../src/db/migrate.ts';
import { readSqlFiles } from '../../src/db/sql-files.ts';
import { freshDatabase } from '../helpers/db.ts';
import { sqlBodyProblems } from './sqlBodies.ts';

const database = await freshDatabase({ max: 2 });
const client = await database.pool.connect();
after(async () => {
  client.release();
  await database.drop();
});

/** A copy of src/db/sql/ to spoil. */
function copyOfFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-sql-'));
  for (const f of fs.readdirSync(sqlFolder)) fs.copyFileSync(path.join(sqlFolder, f), path.join(dir, f));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the database runs exactly the bodies of src/db/sql/, each object in one file', async () => {
  assert.deepEqual(await sqlBodyProblems(client), []);
  // The check had something to compare: every file's function, and the triggers with them.
  const n = await client.query<{ functions: number; triggers: number }>(`select
    (select count(*)::int from pg_proc p where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')) as functions,
    (select count(*)::int from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal) as triggers`);
  assert.ok(n.rows[0]!.functions >= readSqlFiles().length && n.rows[0]!.functions >= 22, JSON.stringify(n.rows[0]));
  assert.ok(n.rows[0]!.triggers >= 28, JSON.stringify(n.rows[0]));
});

test('control: a body changed in the database is reported, naming the function and the file', async () => {
  const body = await client.query<{ src: string }>(`select prosrc as src from pg_proc where proname = 'capacity_totals_add'`);
  const original = body.rows[0]!.src;
  const define = (body: string) => client.query(`create or replace function capacity_totals_add() returns trigger language plpgsql as $body$${body}$body$`);
  await define(original.replace('RETURN NULL;', 'RETURN NULL; -- edited'));
  try {
    const problems = await sqlBodyProblems(client);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, /^function capacity_totals_add\(\) differs from capacity_totals_add\.sql: line \d+: database .*-- edited/);
  } finally {
    await define(original);
  }
  assert.deepEqual(await sqlBodyProblems(client), []);
});

test('control: an edited file, a trigger changed in a file, a missing file and a surplus object are reported', async () => {
  const dir = copyOfFolder();
  const edit = (name: string, from: string, to: string) => {
    const file = path.join(dir, `${name}.sql`);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes(from), `${name}.sql contains ${from}`);
    fs.writeFileSync(file, text.replace(from, to));
  };
  edit('order_place', 'BEGIN', 'BEGIN\n  -- edited');
  edit('atrium_notify_tokens', 'AFTER UPDATE OR DELETE ON accounts', 'AFTER UPDATE ON accounts');
  fs.rmSync(path.join(dir, 'reservation_place.sql'));
  fs.writeFileSync(path.join(dir, 'atrium_surplus.sql'), 'CREATE OR REPLACE FUNCTION atrium_surplus() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n');
  const problems = await sqlBodyProblems(client, dir);
  assert.deepEqual(
    problems.map((p) => p.replace(/: line .*/, '')).sort(),
    [
      'atrium_surplus.sql defines function atrium_surplus(), which the database does not have',
      'function order_place(jsonb) differs from order_place.sql',
      'function reservation_place(jsonb) is defined by no file',
      'trigger accounts_notify on accounts differs from atrium_notify_tokens.sql',
    ],
  );
});

test('control: an object defined by two files, and a file named after nothing it defines, are reported', async () => {
  const dir = copyOfFolder();
  fs.copyFileSync(path.join(dir, 'events_snapshot.sql'), path.join(dir, 'events_snapshot_copy.sql'));
  const problems = await sqlBodyProblems(client, dir);
  assert.deepEqual(problems.sort(), [
    'events_snapshot_copy.sql does not define a function or view named events_snapshot_copy',
    'function events_snapshot() is defined by events_snapshot.sql, events_snapshot_copy.sql',
    'trigger outbox_events_snapshot on outbox_events is defined by events_snapshot.sql, events_snapshot_copy.sql',
  ]);
});
