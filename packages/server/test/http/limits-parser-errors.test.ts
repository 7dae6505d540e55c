// Answers that the HTTP parser or a timeout produces, before any route runs:
// a malformed request, headers or a request line over the size limit, a request that does not
// arrive in time; and Fastify's body errors (bad JSON, a body over the limit). All of them have
// the documented error shape (docs/errors.md) and the security headers of every other answer.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { API_CSP } from '../../src/http/api/plugins/security.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ env: { ATRIUM_BODY_LIMIT: '2048' } });
await t.app.listen({ host: '127.0.0.1', port: 0 });
const port = (t.app.server.address() as net.AddressInfo).port;
const token = await t.token({ class: 'reseller' });
after(() => t.close());

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes raw bytes, reads until the server closes or `ms` pass, parses one HTTP answer. */
function raw(bytes: string, ms = 3000): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port });
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no complete answer within ${ms} ms: ${JSON.stringify(got.slice(0, 200))}`));
    }, ms);
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = got.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    s.write(bytes);
  });
}

function assertShape(res: Raw, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res));
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'request_id']);
  assert.equal(body.code, code);
  assert.equal(typeof body.error, 'string');
  assert.equal(body.request_id, res.headers['x-request-id']);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.equal(res.headers['content-security-policy'], API_CSP);
}

describe('parser and timeout answers', () => {
  test('a malformed request line is a 400 in the error shape', async () => {
    assertShape(await raw('GARBAGE\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  test('headers over the size limit are a 431 in the error shape', async () => {
    const res = await raw(`GET /api/v4/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assertShape(res, 431, 'HEADERS_TOO_LARGE');
  });

  test('a request line over the size limit is a 431 in the error shape', async () => {
    const res = await raw(`GET /api/v4/version?x=${'b'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assertShape(res, 431, 'HEADERS_TOO_LARGE');
  });

  test('a request that does not arrive in time is a 408 in the error shape', async () => {
    // Node checks the timeouts every connectionsCheckingInterval (5 s, app.ts).
    t.app.server.headersTimeout = 200;
    t.app.server.requestTimeout = 200;
    try {
      const res = await raw('GET /api/v4/version HTTP/1.1\r\nHost: x\r\n', 8000);
      assertShape(res, 408, 'REQUEST_TIMEOUT');
    } finally {
      t.app.server.headersTimeout = 20_000;
      t.app.server.requestTimeout = 60_000;
    }
  });

  test('bad JSON and a body over the limit carry the shape and the security headers', async () => {
    const auth = `Authorization: Bearer ${token}\r\n`;
    const bad = await raw(`POST /api/v4/orders HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"a":`);
    assertShape(bad, 400, 'BAD_REQUEST');
    const big = 'x'.repeat(4096);
    const large = await raw(`POST /api/v4/orders HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${big.length + 8}\r\nConnection: close\r\n\r\n{"a":"${big}"}`);
    assertShape(large, 413, 'PAYLOAD_TOO_LARGE');
  });
});
