// A small clamd client over TCP: the INSTREAM command (docs: clamd(8)). The file is sent in
// length-prefixed chunks (4-byte big-endian size, then the bytes), ended by a zero-length chunk;
// clamd answers one line: "stream: OK", "stream: <Signature> FOUND" or "<message> ERROR".
// The z-prefixed command form makes every message NUL-terminated.
import net from 'node:net';
import type { ScanVerdict, Scanner } from '../domain/documents/scanner.ts';

const CHUNK = 64 * 1024;

export class ClamdError extends Error {}

export interface ClamdOptions {
  host: string;
  port: number;
  /** Whole exchange, connect included (ms). */
  timeoutMs?: number;
}

export function parseClamdReply(reply: string): ScanVerdict {
  const line = reply.replace(/\0+$/, '').trim();
  if (/^stream: OK$/.test(line)) return { clean: true, engine: 'clamd' };
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found) return { clean: false, engine: 'clamd', signature: found[1]! };
  // "INSTREAM size limit exceeded. ERROR" and the like: not a verdict. The job retries later
  // and the document stays "processing" (never served unscanned).
  throw new ClamdError(`clamd: ${line || 'empty reply'}`);
}

export function clamdInstream(opts: ClamdOptions, content: Buffer): Promise<ScanVerdict> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: opts.host, port: opts.port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      fn();
    };
    socket.setTimeout(opts.timeoutMs ?? 30_000, () => finish(() => reject(new ClamdError('clamd: timed out'))));
    socket.on('error', (e) => finish(() => reject(new ClamdError(`clamd: ${e.message}`))));
    socket.on('data', (d) => {
      chunks.push(d);
      if (d.includes(0)) finish(() => {
        try {
          resolve(parseClamdReply(Buffer.concat(chunks).toString('utf8')));
        } catch (e) {
          reject(e);
        }
      });
    });
    socket.on('end', () => finish(() => {
      try {
        resolve(parseClamdReply(Buffer.concat(chunks).toString('utf8')));
      } catch (e) {
        reject(e);
      }
    }));
    socket.on('connect', () => {
      socket.write('zINSTREAM\0');
      for (let off = 0; off < content.length; off += CHUNK) {
        const part = content.subarray(off, Math.min(off + CHUNK, content.length));
        const size = Buffer.alloc(4);
        size.writeUInt32BE(part.length);
        socket.write(size);
        socket.write(part);
      }
      socket.write(Buffer.alloc(4));
    });
  });
}

export function clamdScanner(opts: ClamdOptions): Scanner {
  return { name: `clamd ${opts.host}:${opts.port}`, scan: (content) => clamdInstream(opts, content) };
}
