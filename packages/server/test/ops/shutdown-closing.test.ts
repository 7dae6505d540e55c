// What a closing server does with each kind of connection, deterministically, on raw sockets:
// an idle keep-alive connection is closed; a request already running (held up by a table lock)
// finishes with 200 and its connection is then closed at once instead of idling for the 72 s
// keep-alive timeout; a request that only completes after close began gets a complete 503 in the
// spec's error shape with Retry-After and Connection: close.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { freshDatabase } from '../helpers/db.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const db = await freshDatabase();
after(() => db.drop());

interface Conn {
  socket: net.Socket;
  data: () => string;
  closed: Promise<void>;
}

async function connect(port: number): Promise<Conn> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (text += d));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, data: () => text, closed };
}

async function until(cond: () => boolean, what: string, ms = 5_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

test('closing: idle sockets closed, running requests finish, late ones get a spec 503', { timeout: 30_000 }, async () => {
  const app = await buildApp({ database: db, config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }), logger: false, ...TEST_SCHEMAS });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as net.AddressInfo).port;
  const { token } = await createToken({ db: db.db, clock: systemClock }, { class: 'user', name: 'closing', rights: ['*'] });
  const get = (path: string, auth = false) =>
    `GET ${path} HTTP/1.1\r\nHost: atrium\r\nConnection: keep-alive\r\n${auth ? `Authorization: Bearer ${token}\r\n` : ''}\r\n`;

  // A: one answered request, then idle on keep-alive.
  const idle = await connect(port);
  idle.socket.write(get('/api/v4/version'));
  await until(() => idle.data().endsWith('}'), 'the first answer');
  assert.equal(parse(idle.data()).status, 200);

  // B: a request running during close; the token lookup waits for a lock held here.
  const locker = await db.pool.connect();
  locker.on('error', () => {});
  await locker.query('begin');
  await locker.query('lock table api_tokens in access exclusive mode');
  const running = await connect(port);
  running.socket.write(get('/api/v4/whoami', true));
  await new Promise((r) => setTimeout(r, 200));

  // C: a request whose headers are not complete yet when close begins.
  const late = await connect(port);
  late.socket.write('GET /api/v4/version HTTP/1.1\r\nHost: atrium\r\n');
  await new Promise((r) => setTimeout(r, 100));

  const started = Date.now();
  const closed = app.close();
  await idle.closed;
  assert.ok(Date.now() - started < 1_000, 'the idle keep-alive connection is closed at once');

  late.socket.write('Connection: keep-alive\r\n\r\n');
  await late.closed;
  const shed = parse(late.data());
  assert.equal(shed.status, 503);
  assert.equal(shed.headers['retry-after'], '1');
  assert.equal(shed.headers.connection, 'close');
  const body = JSON.parse(shed.body) as Record<string, unknown>;
  assert.equal(body.code, 'SERVICE_UNAVAILABLE');
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'request_id']);
  assert.equal(body.request_id, shed.headers['x-request-id']);

  assert.equal(running.data(), '', 'the running request is still waiting for the lock');
  await locker.query('rollback');
  locker.release();
  await running.closed;
  const done = parse(running.data());
  assert.equal(done.status, 200, running.data());
  assert.deepEqual(JSON.parse(done.body), { access: 'user', museums: [] });
  assert.equal(done.headers.connection, 'close', 'an answer sent while closing closes its connection');

  await closed;
  assert.ok(Date.now() - started < 5_000, `close took ${Date.now() - started} ms`);
});
