// Repeatable migrations: every PL/pgSQL function, trigger and view lives in one file of db/sql/
// with its current body (db/sql/README.md). The runner applies a file whenever its text differs
// from the text last applied, which it records by hash in atrium_sql_objects. Files are applied
// in name order, except that the files a file's `-- depends:` lines name are applied before it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export const sqlFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'sql');

export interface SqlFile {
  /** The file name without `.sql`: the name of the object it defines. */
  name: string;
  text: string;
  sha256: string;
  depends: string[];
}

const DEPENDS = /^--\s*depends:(.*)$/i;

/** The header's `-- depends: a, b` lines (only the leading comment block is read). */
function dependsOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l !== '' && !l.startsWith('--')) break;
    const m = DEPENDS.exec(l);
    if (m) out.push(...m[1]!.split(/[\s,]+/).filter(Boolean));
  }
  return out;
}

/** Every file of the folder, in the order it must be applied: by name, dependencies first. */
export function readSqlFiles(folder: string = sqlFolder): SqlFile[] {
  const byName = new Map<string, SqlFile>();
  for (const f of fs.readdirSync(folder).filter((n) => n.endsWith('.sql')).sort()) {
    const text = fs.readFileSync(path.join(folder, f), 'utf8');
    const name = f.slice(0, -'.sql'.length);
    byName.set(name, { name, text, sha256: createHash('sha256').update(text).digest('hex'), depends: dependsOf(text) });
  }
  const ordered: SqlFile[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: SqlFile, from: string[]) => {
    if (state.get(file.name) === 'done') return;
    if (state.get(file.name) === 'visiting') throw new Error(`db/sql: dependency cycle ${[...from, file.name].join(' -> ')}`);
    state.set(file.name, 'visiting');
    for (const d of file.depends) {
      const dep = byName.get(d);
      if (!dep) throw new Error(`db/sql/${file.name}.sql depends on ${d}, which has no file`);
      visit(dep, [...from, file.name]);
    }
    state.set(file.name, 'done');
    ordered.push(file);
  };
  for (const file of byName.values()) visit(file, []);
  return ordered;
}

/**
 * Applies every file whose text changed since it was last applied (all of them on a database that
 * never ran this: the bodies equal what the numbered migrations left, so nothing changes), each
 * in its own transaction. The caller holds the migration lock. Returns the names applied.
 */
export async function applySqlFiles(client: pg.ClientBase, folder: string = sqlFolder): Promise<string[]> {
  await client.query(`create table if not exists atrium_sql_objects (
    name text primary key,
    sha256 text not null,
    applied_at timestamptz not null default now()
  )`);
  const res = await client.query<{ name: string; sha256: string }>('select name, sha256 from atrium_sql_objects');
  const applied = new Map(res.rows.map((r) => [r.name, r.sha256]));
  const done: string[] = [];
  for (const file of readSqlFiles(folder)) {
    if (applied.get(file.name) === file.sha256) continue;
    try {
      await client.query('begin');
      await client.query(file.text);
      await client.query(
        `insert into atrium_sql_objects (name, sha256) values ($1, $2)
         on conflict (name) do update set sha256 = excluded.sha256, applied_at = now()`,
        [file.name, file.sha256],
      );
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw new Error(`db/sql/${file.name}.sql: ${(err as Error).message}`, { cause: err });
    }
    done.push(file.name);
  }
  return done;
}
