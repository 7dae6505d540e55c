// The application's role in the embedded PostgreSQL (docs/adr/0012): `atrium`, a login role
// without superuser, CREATEDB, CREATEROLE or replication, allowed to connect only to its own
// database, where it owns the schemas and everything in them (migrations, graphile-worker's
// `graphile_worker` schema). The superuser stays for administration (backups, the test harness);
// the running service never uses it, so SQL in the service's name cannot run programs
// (COPY … TO PROGRAM) or read server files.
import pg from 'pg';
import type { EmbeddedSecret } from './embedded.ts';

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

// Objects made by the superuser before ADR 0012 (the service ran as `postgres`) change hands
// once: schemas, tables (their indexes, triggers and owned sequences follow), free sequences,
// routines and types outside the system schemas.
const TAKE_OVER = (role: string) => `
do $$
declare r record; me oid := (select oid from pg_roles where rolname = ${lit(role)});
begin
  for r in select nspname from pg_namespace where nspname !~ '^pg_' and nspname <> 'information_schema' and nspowner <> me loop
    execute format('alter schema %I owner to %I', r.nspname, ${lit(role)});
  end loop;
  for r in select c.oid::regclass as obj, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname !~ '^pg_' and n.nspname <> 'information_schema' and c.relkind in ('r','p','v','m','f') and c.relowner <> me loop
    execute format('alter %s %s owner to %I', case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end, r.obj, ${lit(role)});
  end loop;
  for r in select c.oid::regclass as obj from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname !~ '^pg_' and n.nspname <> 'information_schema' and c.relkind = 'S' and c.relowner <> me loop
    execute format('alter sequence %s owner to %I', r.obj, ${lit(role)});
  end loop;
  for r in select p.oid::regprocedure as obj from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname !~ '^pg_' and n.nspname <> 'information_schema' and p.prokind in ('f','p') and p.proowner <> me loop
    execute format('alter routine %s owner to %I', r.obj, ${lit(role)});
  end loop;
  for r in select t.oid::regtype as obj from pg_type t join pg_namespace n on n.oid = t.typnamespace
           where n.nspname !~ '^pg_' and n.nspname <> 'information_schema' and t.typowner <> me
             and (t.typtype in ('e','d','r') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c')) loop
    execute format('alter type %s owner to %I', r.obj, ${lit(role)});
  end loop;
end $$`;

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates (or brings in line) the application role and its database; idempotent, run at every start. */
export async function ensureAppRole(adminUrl: string, dbName: string, secret: EmbeddedSecret): Promise<void> {
  const role = secret.appUser;
  await withClient(adminUrl, async (c) => {
    const exists = (await c.query('select 1 from pg_roles where rolname = $1', [role])).rowCount === 1;
    await c.query(`${exists ? 'alter' : 'create'} role ${ident(role)} with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${lit(secret.appPassword)}`);
    if ((await c.query('select 1 from pg_database where datname = $1', [dbName])).rowCount === 0) {
      await c.query(`create database ${ident(dbName)}`);
    }
    // Only its own database: other databases (postgres, templates) refuse it.
    for (const other of (await c.query<{ datname: string }>('select datname from pg_database where datname <> $1 and datallowconn', [dbName])).rows) {
      await c.query(`revoke connect, temporary on database ${ident(other.datname)} from public`);
    }
    await c.query(`revoke all on database ${ident(dbName)} from public`);
    await c.query(`grant connect, temporary, create on database ${ident(dbName)} to ${ident(role)}`);
  });
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  await withClient(u.toString(), (c) => c.query(TAKE_OVER(role)));
}
