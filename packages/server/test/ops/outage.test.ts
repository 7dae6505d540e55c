// A database outage and its recovery, with a real PostgreSQL that really goes away: while it is
// down, every request that needs it (token resolution in the auth hook included) is a quick 503
// SERVICE_UNAVAILABLE with Retry-After, /readyz is 503, and once the same server is back on the
// same port the very same app answers 200 again, without a restart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { freePort, startEmbedded, type EmbeddedServer } from '../../src/db/embedded.ts';
import { ensureDatabase } from '../../src/db/locate.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { installQueue } from '../../src/jobs/queue.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-outage-'));
// As root the embedded PostgreSQL runs as the `postgres` user, which must reach the directory.
fs.chmodSync(tmp, 0o755);
const dir = path.join(tmp, 'pg');
let server: EmbeddedServer | undefined;
let database: Database | undefined;
after(async () => {
  await database?.close().catch(() => {});
  await server?.stop().catch(() => {});
  fs.rmSync(tmp, { recursive: true, force: true });
});

function assertUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, what: string) {
  assert.equal(res.statusCode, 503, `${what}: ${JSON.stringify(res.json())}`);
  assert.equal(res.headers['retry-after'], '5', what);
  const body = res.json() as Record<string, unknown>;
  assert.equal(body.code, 'SERVICE_UNAVAILABLE', what);
  assert.equal(typeof body.error, 'string', what);
  assert.equal(typeof body.request_id, 'string', what);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'request_id'], what);
}

test('database down → quick 503 with Retry-After; back up → the same app recovers', { timeout: 90_000 }, async () => {
  const port = await freePort();
  server = await startEmbedded({ dir, port });
  await ensureDatabase(server.url, 'atrium');
  const url = server.url.replace(/\/postgres$/, '/atrium');
  database = openDatabase(url, { max: 5 });
  await runMigrations(database.pool, { installQueue });
  const app = await buildApp({ database, config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }), logger: false, ...TEST_SCHEMAS });
  after(() => app.close());
  const { token } = await createToken({ db: database.db, clock: systemClock }, { class: 'user', name: 'outage', rights: ['*'] });
  const auth = { authorization: `Bearer ${token}` };
  const customer = (n: number) => ({ name: 'Ada', surname: `Outage ${n}`, email: `ada${n}@example.org` });

  assert.equal((await app.inject({ url: '/api/v4/whoami', headers: auth })).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/v4/tickets' })).statusCode, 200);
  assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);

  await server.stop();

  const started = Date.now();
  const down = {
    whoami: await app.inject({ url: '/api/v4/whoami', headers: auth }),
    anonymousList: await app.inject({ url: '/api/v4/tickets' }),
    authenticatedList: await app.inject({ url: '/api/v4/customers', headers: auth }),
    write: await app.inject({ method: 'POST', url: '/api/v4/customers', headers: auth, payload: customer(1) }),
  };
  const elapsed = Date.now() - started;
  for (const [what, res] of Object.entries(down)) assertUnavailable(res, what);
  assert.ok(elapsed < 8_000, `four requests while down took ${elapsed} ms`);

  const ready = await app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 503);
  assert.equal(ready.headers['retry-after'], '5');
  // Liveness does not depend on the database: the process is fine, only not ready.
  assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);

  server = await startEmbedded({ dir, port });

  assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/v4/whoami', headers: auth })).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/v4/tickets' })).statusCode, 200);
  const created = await app.inject({ method: 'POST', url: '/api/v4/customers', headers: auth, payload: customer(2) });
  assert.equal(created.statusCode, 201, created.body);
  // The write attempted while the database was down left nothing behind.
  const listed = await app.inject({ url: '/api/v4/customers', headers: auth });
  assert.equal(listed.statusCode, 200);
  const names = (listed.json() as { customers: { surname: string }[] }).customers.map((c) => c.surname);
  assert.deepEqual(names, ['Outage 2']);
});
