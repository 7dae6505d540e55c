// Open-loop load: requests arrive at random (Poisson) times at a given mean rate, whether or not
// earlier ones were answered, as scans arrive from many independent gates. autocannon's fixed rate
// starts every connection's request at the same tick, so it measures bursts of `connections`
// requests rather than a steady rate. Latency counts from the moment a request was due (no
// coordinated omission). 127.0.0.1 only, bounded in time and in requests in flight.
//
// The generator shares the machine's two cores with the server and PostgreSQL, so its own cost
// and its own pauses are part of every figure it prints. Node's http client spent ~0.2 ms of CPU
// per request and measured a bare SELECT at 1,000/s with p99 up to 42 ms (bench/README.md,
// Entry): this one writes pre-built HTTP/1.1 bytes on keep-alive sockets and reads only the
// status line and Content-Length of each answer.
import net from 'node:net';

export interface OpenLoopSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: () => unknown;
  /** Mean arrivals per second. */
  rate: number;
  seconds: number;
  /** Sockets (and so requests in flight) at most; arrivals beyond wait for a free socket. */
  sockets: number;
}

export interface OpenLoopResult {
  sent: number;
  ok: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
}

/** One keep-alive connection answering one request at a time (no pipelining). */
class Conn {
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

  // Answers come whole or in pieces: wait for the head, then for Content-Length bytes of body.
  private data(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      const head = this.buf.indexOf('\r\n\r\n');
      if (head < 0) return;
      const text = this.buf.toString('latin1', 0, head);
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(text);
      if (!m) return this.fail();
      const end = head + 4 + Number(m[1]);
      if (this.buf.length < end) return;
      const status = Number(text.slice(9, 12));
      this.buf = this.buf.subarray(end);
      this.finish(status);
    }
  }

  private fail(): void {
    this.socket.destroy();
    this.finish('error');
  }
}

function connect(host: string, port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port }, () => resolve(new Conn(s)));
    s.once('error', reject);
  });
}

export async function openLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(spec.url)) throw new Error('load tests target 127.0.0.1 only');
  const url = new URL(spec.url);
  const conns = await Promise.all(Array.from({ length: spec.sockets }, () => connect(url.hostname, Number(url.port))));
  const free = [...conns];
  const waiting: number[] = [];
  const head = `${spec.method ?? 'GET'} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\n` +
    Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const request = (): Buffer => {
    if (!spec.body) return Buffer.from(`${head}\r\n`, 'latin1');
    const body = Buffer.from(JSON.stringify(spec.body()));
    return Buffer.concat([Buffer.from(`${head}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`, 'latin1'), body]);
  };
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let inFlight = 0;
  let drained: (() => void) | null = null;

  const start = (due: number, conn: Conn) => {
    sent++;
    inFlight++;
    conn.send(request(), (status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 'error') latencies.push(performance.now() - due);
      inFlight--;
      // A broken connection is not reused; its arrivals wait for the others.
      if (status !== 'error') {
        const next = waiting.shift();
        if (next !== undefined) start(next, conn);
        else free.push(conn);
      }
      if (inFlight === 0 && drained) drained();
    });
  };
  const arrive = (due: number) => {
    const conn = free.pop();
    if (conn) start(due, conn);
    else waiting.push(due);
  };

  const t0 = performance.now();
  const end = t0 + spec.seconds * 1000;
  let next = t0;
  while (next < end) {
    const now = performance.now();
    while (next <= now && next < end) {
      arrive(next);
      next += -Math.log(1 - Math.random()) * (1000 / spec.rate);
    }
    // setImmediate when the next arrival is under a millisecond away: a timer would round it up.
    const wait = next - performance.now();
    await new Promise((r) => (wait < 1 ? setImmediate(r) : setTimeout(r, Math.min(5, wait - 0.5))));
  }
  if (inFlight > 0) await new Promise<void>((r) => (drained = r));
  for (const c of conns) c.socket.destroy();
  latencies.sort((a, b) => a - b);
  const q = (f: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] ?? NaN);
  const ok = Object.entries(statuses).filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  return { sent, ok, statuses, p50: q(0.5), p99: q(0.99), max: Math.round(latencies[latencies.length - 1] ?? NaN) };
}
