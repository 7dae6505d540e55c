// /readyz on a frozen database (a stopped PostgreSQL process, a hung network path): the server
// accepts the connection and never answers. The probe must answer 503 within its check timeout,
// not after the client's own connect and statement timeouts.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import Fastify from 'fastify';
import pg from 'pg';
import { healthRoutes } from '../../src/http/api/routes/health.ts';

// The bound the route promises (health.ts CHECK_TIMEOUT_MS).
const CHECK_TIMEOUT_MS = 2000;
const sockets = new Set<net.Socket>();
const frozen = net.createServer((s) => void sockets.add(s));
await new Promise<void>((r) => frozen.listen(0, '127.0.0.1', r));
const port = (frozen.address() as net.AddressInfo).port;
// The client's timeouts as the jobs pool has them: far longer than a probe may take.
const pool = new pg.Pool({ connectionString: `postgres://atrium@127.0.0.1:${port}/atrium`, connectionTimeoutMillis: 20_000, max: 2 });
pool.on('error', () => undefined);
after(async () => {
  for (const s of sockets) s.destroy();
  frozen.close();
  await pool.end().catch(() => undefined);
});

test('/readyz answers 503 within the check timeout when the database does not answer', async () => {
  const app = Fastify();
  await app.register(healthRoutes(pool));
  const t0 = Date.now();
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  const ms = Date.now() - t0;
  await app.close();
  assert.equal(res.statusCode, 503);
  assert.equal(res.json().status, 'database unreachable');
  assert.ok(ms < CHECK_TIMEOUT_MS + 1000, `answered after ${ms} ms`);
});
