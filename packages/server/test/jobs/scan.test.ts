// The scanners without ClamAV: the built-in EICAR scanner, clamd reply parsing, and the INSTREAM
// client against a small fake clamd that decodes the chunk framing (so chunking, the terminating
// zero-length chunk and error replies are checked on every run, clamd installed or not).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { builtinScanner, EICAR_TEST_FILE } from '../../src/scan/builtin.ts';
import { ClamdError, clamdInstream, parseClamdReply } from '../../src/scan/clamd.ts';

describe('built-in scanner', () => {
  test('finds EICAR alone and embedded anywhere; passes clean bytes', async () => {
    assert.deepEqual(await builtinScanner.scan(EICAR_TEST_FILE), { clean: false, engine: 'builtin', signature: 'Eicar-Test-Signature' });
    const embedded = Buffer.concat([Buffer.alloc(100_000, 0x41), EICAR_TEST_FILE, Buffer.from('tail')]);
    assert.equal((await builtinScanner.scan(embedded)).clean, false);
    assert.equal((await builtinScanner.scan(Buffer.from('%PDF-1.4 harmless'))).clean, true);
    // One byte changed is no longer the test file.
    const altered = Buffer.from(EICAR_TEST_FILE);
    altered[10] = 0x41;
    assert.equal((await builtinScanner.scan(altered)).clean, true);
  });
});

describe('clamd replies', () => {
  test('OK, FOUND and errors', () => {
    assert.deepEqual(parseClamdReply('stream: OK\0'), { clean: true, engine: 'clamd' });
    assert.deepEqual(parseClamdReply('stream: Win.Test.EICAR_HDB-1 FOUND\0'), { clean: false, engine: 'clamd', signature: 'Win.Test.EICAR_HDB-1' });
    assert.throws(() => parseClamdReply('INSTREAM size limit exceeded. ERROR\0'), ClamdError);
    assert.throws(() => parseClamdReply(''), ClamdError);
  });
});

describe('INSTREAM client against a fake clamd', () => {
  const received: Array<{ command: string; chunks: number[]; data: Buffer }> = [];
  let port = 0;
  const server = net.createServer((socket) => {
    let buf = Buffer.alloc(0);
    let command: string | null = null;
    const chunks: number[] = [];
    const data: Buffer[] = [];
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (command === null) {
        const nul = buf.indexOf(0);
        if (nul < 0) return;
        command = buf.subarray(0, nul).toString();
        buf = buf.subarray(nul + 1);
      }
      while (buf.length >= 4) {
        const size = buf.readUInt32BE(0);
        if (buf.length < 4 + size) return;
        if (size === 0) {
          const all = Buffer.concat(data);
          received.push({ command, chunks, data: all });
          if (all.includes(Buffer.from('FAIL-ME'))) socket.end('INSTREAM size limit exceeded. ERROR\0');
          else socket.end(all.includes(EICAR_TEST_FILE) ? 'stream: Fake.EICAR FOUND\0' : 'stream: OK\0');
          return;
        }
        chunks.push(size);
        data.push(buf.subarray(4, 4 + size));
        buf = buf.subarray(4 + size);
      }
    });
  });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('sends zINSTREAM, 64 KiB length-prefixed chunks and a zero-length end; reads the verdict', async () => {
    const big = Buffer.concat([Buffer.alloc(150_000, 7), EICAR_TEST_FILE]);
    assert.deepEqual(await clamdInstream({ host: '127.0.0.1', port }, big), { clean: false, engine: 'clamd', signature: 'Fake.EICAR' });
    const last = received.at(-1)!;
    assert.equal(last.command, 'zINSTREAM');
    assert.deepEqual(last.chunks, [65536, 65536, 150_000 + EICAR_TEST_FILE.length - 131072]);
    assert.ok(last.data.equals(big));
    assert.deepEqual(await clamdInstream({ host: '127.0.0.1', port }, Buffer.from('clean')), { clean: true, engine: 'clamd' });
  });

  test('an ERROR reply, a refused connection and a silent server are errors, never a verdict', async () => {
    await assert.rejects(clamdInstream({ host: '127.0.0.1', port }, Buffer.from('FAIL-ME')), /size limit exceeded/);
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await assert.rejects(clamdInstream({ host: '127.0.0.1', port: closedPort }, Buffer.from('x')), ClamdError);
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const silentPort = (silent.address() as net.AddressInfo).port;
      await assert.rejects(clamdInstream({ host: '127.0.0.1', port: silentPort, timeoutMs: 300 }, Buffer.from('x')), /timed out/);
    } finally {
      silent.close();
    }
  });
});
