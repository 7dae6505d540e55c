// the embedded PostgreSQL was open to every local user (a constant password,
// its port in a world-readable lock file, the service connected as superuser, so anyone on the
// host ran `COPY … TO PROGRAM` as postgres). Now: a random per-install password in a 0600 file,
// a 0600 lock, and the service's role can neither run programs nor reach other databases.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { locateDatabase, type Located } from '../../src/db/locate.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-security-'));
let located: Located | undefined;
after(async () => {
  await located?.release();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function attempt(config: pg.ClientConfig | string, sql = 'select 1'): Promise<string> {
  const c = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  try {
    await c.connect();
    await c.query(sql);
    return 'ok';
  } catch (e) {
    return `${(e as { code?: string }).code}: ${(e as Error).message}`;
  } finally {
    await c.end().catch(() => {});
  }
}

test('embedded mode: per-install secret, private files, a service role that is not superuser', { timeout: 120_000 }, async () => {
  const dataDir = path.join(tmp, 'data');
  located = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: dataDir }), 'server', () => {});
  const server = located.server!;
  const lock = path.join(dataDir, 'atrium.lock');
  const secretFile = path.join(dataDir, 'pg', 'atrium-secret.json');
  assert.equal(fs.statSync(lock).mode & 0o777, 0o600, 'lock file: owner only');
  assert.equal(fs.statSync(secretFile).mode & 0o777, 0o600, 'secret: owner only');
  assert.equal(fs.statSync(path.join(dataDir, 'pg')).mode & 0o777, 0o700, 'cluster: owner only');
  assert.match(server.secret.password, /^[0-9a-f]{48}$/);
  assert.doesNotMatch(JSON.stringify(JSON.parse(fs.readFileSync(lock, 'utf8'))), new RegExp(server.secret.password), 'no secret in the lock');

  const port = server.port;
  // The constant password of before no longer opens anything, nor does no password at all.
  assert.match(await attempt({ host: '127.0.0.1', port, user: 'postgres', password: 'atrium-embedded', database: 'postgres' }), /^28P01/);
  assert.match(await attempt({ host: '127.0.0.1', port, user: 'postgres', password: '', database: 'postgres' }), /^(28P01|08P01)|password/);
  // No unix socket in a shared directory (e.g. /tmp/.s.PGSQL.<port>).
  assert.equal(fs.existsSync(`/tmp/.s.PGSQL.${port}`), false);

  // The service's role: not superuser, cannot run programs or read server files, only its database.
  assert.equal(new URL(located.url).username, 'atrium');
  assert.equal(await attempt(located.url), 'ok');
  const c = new pg.Client({ connectionString: located.url });
  await c.connect();
  const role = (await c.query<{ rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean }>('select rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = current_user')).rows[0]!;
  await c.end();
  assert.deepEqual(role, { rolsuper: false, rolcreaterole: false, rolcreatedb: false });
  assert.match(await attempt(located.url, `copy (select 1) to program 'id'`), /^42501: permission denied to COPY to or from an external program/);
  assert.match(await attempt(located.url, `select pg_read_file('/etc/passwd')`), /^42501/);
  const other = new URL(located.url);
  other.pathname = '/postgres';
  assert.match(await attempt(other.toString()), /^42501: permission denied for database "postgres"/);
  // It owns its schema, so migrations and graphile-worker's own schema can be created.
  assert.equal(await attempt(located.url, 'create schema probe_schema; create table probe_schema.t (id int); drop schema probe_schema cascade'), 'ok');

  // A second install gets its own secret.
  const second = await locateDatabase(loadConfig({ ATRIUM_DATA_DIR: path.join(tmp, 'data2') }), 'server', () => {});
  try {
    assert.notEqual(second.server!.secret.password, server.secret.password);
    assert.notEqual(second.server!.secret.appPassword, server.secret.appPassword);
  } finally {
    await second.release();
  }
});
