// Connection caps (docs/operations.md "Limits and their settings"): one
// client opening many idle connections (a half-open flood) is cut off at accept, before any
// parsing, once it holds ATRIUM_MAX_CONNECTIONS_PER_ADDRESS; another address still gets answers;
// the global ATRIUM_MAX_CONNECTIONS caps the process; shedding is logged, rate-limited.
// Bounded: at most 60 sockets, 127.0.0.1 and 127.0.0.2 only.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { freshDatabase } from '../helpers/db.ts';
import { logLines } from '../helpers/logLines.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const { lines, stream } = logLines();
const database = await freshDatabase();
const app = await buildApp({
  database,
  config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent', ATRIUM_MAX_CONNECTIONS: '30', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '10' }),
  logger: { level: 'warn', stream },
  ...TEST_SCHEMAS,
});
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as net.AddressInfo).port;
const sockets: net.Socket[] = [];
after(async () => {
  for (const s of sockets) s.destroy();
  await app.close();
  await database.drop();
});

/** Opens `n` idle connections from `from`; resolves with how many the server closed within 1 s. */
async function flood(n: number, from: string): Promise<number> {
  const closed = await Promise.all(
    Array.from({ length: n }, () => new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port, localAddress: from });
      sockets.push(s);
      s.on('error', () => {});
      const timer = setTimeout(() => resolve(false), 1000);
      s.on('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    })),
  );
  return closed.filter(Boolean).length;
}

async function version(from: string) {
  const res = await new Promise<number>((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: from });
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('error', reject);
    s.on('close', () => resolve(Number(got.split(' ')[1])));
    s.setTimeout(3000, () => s.destroy());
    s.write('GET /api/v4/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  });
  return res;
}

describe('connection caps', () => {
  test('one address is capped; another still gets answers; the shedding is logged once', async () => {
    const closed = await flood(25, '127.0.0.1');
    assert.equal(closed, 15, 'all connections over the per-address cap of 10 were closed at once');
    assert.equal(await version('127.0.0.2'), 200);
    const shed = lines.filter((l) => l.includes('connections shed at accept'));
    assert.equal(shed.length, 1, 'one line for 15 shed connections');
    assert.equal(JSON.parse(shed[0]!).shed.top, '127.0.0.1');
    // Closing the flood frees its share again.
    for (const s of sockets.splice(0)) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await version('127.0.0.1'), 200);
  });

  test('the global cap closes connections over it, whatever their address', async () => {
    let closed = 0;
    for (let i = 3; i <= 6; i++) closed += await flood(10, `127.0.0.${i}`);
    assert.equal(closed, 10, '40 connections from 4 addresses against a cap of 30');
    for (const s of sockets.splice(0)) s.destroy();
  });
});
