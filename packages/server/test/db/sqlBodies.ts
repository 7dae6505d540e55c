// Compares the database's functions, triggers and views with the files of src/db/sql/. Each file
// is applied in a savepoint of one transaction that is rolled back, and the catalogue rows it
// wrote (their xmin changed) are the objects it defines: for each, the definition PostgreSQL
// reports after the file ran must equal the one before. Nothing is left changed.
import type pg from 'pg';
import { readSqlFiles } from '../../src/db/sql-files.ts';

type Entry = { x: string; def: string };

// Objects in the public schema, by kind and name; extension members (pg_trgm) excluded.
// graphile-worker's objects live in their own schema.
const CATALOGUE = `
  select 'function ' || p.oid::regprocedure::text as key, p.xmin::text as x, pg_get_functiondef(p.oid) as def
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname = 'public' and p.prokind in ('f', 'p')
     and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  union all
  select 'trigger ' || t.tgname || ' on ' || c.relname, t.xmin::text, pg_get_triggerdef(t.oid)
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and not t.tgisinternal
  union all
  select 'view ' || c.relname, r.xmin::text, pg_get_viewdef(c.oid)
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
   where n.nspname = 'public' and c.relkind = 'v'
     and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')`;

async function catalogue(client: pg.ClientBase): Promise<Map<string, Entry>> {
  const res = await client.query<{ key: string; x: string; def: string }>(CATALOGUE);
  return new Map(res.rows.map((r) => [r.key, { x: r.x, def: r.def }]));
}

/** The first line where two definitions part, for the report. */
function firstDifference(a: string, b: string): string {
  const al = a.split('\n');
  const bl = b.split('\n');
  const i = al.findIndex((l, k) => l !== bl[k]);
  const at = i === -1 ? al.length : i;
  return `line ${at + 1}: database ${JSON.stringify(al[at] ?? '')} / file ${JSON.stringify(bl[at] ?? '')}`;
}

/** Every mismatch between the database and the folder's files; empty when they agree. */
export async function sqlBodyProblems(client: pg.ClientBase, folder?: string): Promise<string[]> {
  const problems: string[] = [];
  const owners = new Map<string, string[]>();
  await client.query('begin');
  try {
    const before = await catalogue(client);
    for (const file of readSqlFiles(folder)) {
      const where = `${file.name}.sql`;
      await client.query('savepoint sql_file');
      try {
        await client.query(file.text);
      } catch (err) {
        problems.push(`${where} fails: ${(err as Error).message}`);
        await client.query('rollback to savepoint sql_file');
        continue;
      }
      const after = await catalogue(client);
      const touched = [...after].filter(([k, v]) => before.get(k)?.x !== v.x).map(([k]) => k);
      const named = touched.some((k) => k.startsWith(`function ${file.name}(`) || k === `view ${file.name}`);
      if (!named) problems.push(`${where} does not define a function or view named ${file.name}`);
      for (const key of touched) {
        owners.set(key, [...(owners.get(key) ?? []), where]);
        const was = before.get(key);
        if (!was) problems.push(`${where} defines ${key}, which the database does not have`);
        else if (was.def !== after.get(key)!.def) {
          problems.push(`${key} differs from ${where}: ${firstDifference(was.def, after.get(key)!.def)}`);
        }
      }
      for (const key of before.keys()) if (!after.has(key)) problems.push(`${where} drops ${key}`);
      await client.query('rollback to savepoint sql_file');
    }
    for (const key of before.keys()) {
      const files = owners.get(key) ?? [];
      if (files.length !== 1) problems.push(`${key} is defined by ${files.length === 0 ? 'no file' : files.join(', ')}`);
    }
  } finally {
    await client.query('rollback');
  }
  return problems;
}
