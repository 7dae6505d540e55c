// The load generators' HTTP/1.1 client (open-loop.ts, load.ts): pre-built request bytes written
// on keep-alive sockets, and of each answer only the status line and the body's length read.
// Why not a general client: the generator shares the machine's two cores with the server and
// PostgreSQL, so what it spends per request is taken from what it measures; Node's http client
// and autocannon each spend several times what this one does.
import net from 'node:net';

/** One keep-alive connection answering one request at a time (no pipelining). */
export class Conn {
  private buf: Buffer = Buffer.alloc(0);
  private onAnswer: ((status: number | 'error') => void) | null = null;
  constructor(readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (d) => this.data(d));
    socket.on('error', () => this.finish('error'));
    socket.on('close', () => this.finish('error'));
  }

  send(bytes: Buffer, done: (status: number | 'error') => void): void {
    this.onAnswer = done;
    this.socket.write(bytes);
  }

  private finish(status: number | 'error'): void {
    const f = this.onAnswer;
    this.onAnswer = null;
    f?.(status);
  }

  // Answers come whole or in pieces: wait for the head, then for the body (Content-Length bytes;
  // none for 204 and 304; a chunked body up to its last chunk).
  private data(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      const head = this.buf.indexOf('\r\n\r\n');
      if (head < 0) return;
      const text = this.buf.toString('latin1', 0, head);
      const status = Number(text.slice(9, 12));
      let end: number;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
      if (length) end = head + 4 + Number(length[1]);
      else if (status === 204 || status === 304) end = head + 4;
      else if (/\r\ntransfer-encoding:\s*chunked/i.test(text)) {
        const last = this.buf.indexOf('\r\n0\r\n\r\n', head + 2);
        if (last < 0) return;
        end = last + 7;
      } else return this.fail();
      if (this.buf.length < end) return;
      this.buf = this.buf.subarray(end);
      this.finish(status);
    }
  }

  private fail(): void {
    this.socket.destroy();
    this.finish('error');
  }
}

export function connect(host: string, port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port }, () => resolve(new Conn(s)));
    s.once('error', reject);
  });
}

export interface RequestSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Builds each request body (varied per request), for POSTs. */
  body?: () => unknown;
  /** Builds each request path (varied per request). */
  path?: () => string;
}

/** A builder of each request's bytes; 127.0.0.1 only. */
export function requests(spec: RequestSpec): { host: string; port: number; next(): Buffer } {
  if (!/^http:\/\/127\.0\.0\.1:/.test(spec.url)) throw new Error('load tests target 127.0.0.1 only');
  const url = new URL(spec.url);
  const rest = ` HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\n` +
    Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const method = spec.method ?? 'GET';
  const fixed = Buffer.from(`${method} ${url.pathname}${url.search}${rest}\r\n`, 'latin1');
  const next = (): Buffer => {
    const head = `${method} ${spec.path ? spec.path() : `${url.pathname}${url.search}`}${rest}`;
    if (!spec.body) return spec.path ? Buffer.from(`${head}\r\n`, 'latin1') : fixed;
    const body = Buffer.from(JSON.stringify(spec.body()));
    return Buffer.concat([Buffer.from(`${head}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`, 'latin1'), body]);
  };
  return { host: url.hostname, port: Number(url.port), next };
}

/** Latency quantiles in whole ms of a list of latencies (sorted here). */
export function quantiles(latencies: number[]): { p50: number; p99: number; max: number } {
  latencies.sort((a, b) => a - b);
  const q = (f: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] ?? NaN);
  return { p50: q(0.5), p99: q(0.99), max: Math.round(latencies[latencies.length - 1] ?? NaN) };
}
