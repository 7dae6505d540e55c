// Open-loop load: requests arrive at random (Poisson) times at a given mean rate, whether or not
// earlier ones were answered, as scans arrive from many independent gates. autocannon's fixed rate
// starts every connection's request at the same tick, so it measures bursts of `connections`
// requests rather than a steady rate. Latency counts from the moment a request was due (no
// coordinated omission). 127.0.0.1 only, bounded in time and in requests in flight.
//
// The generator shares the machine's two cores with the server and PostgreSQL, so its own cost
// and its own pauses are part of every figure it prints: it writes pre-built requests and reads
// only each answer's status and length (raw-http.ts).
import { connect, quantiles, requests, type Conn } from './raw-http.ts';

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

export async function openLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
  const req = requests(spec);
  const conns = await Promise.all(Array.from({ length: spec.sockets }, () => connect(req.host, req.port)));
  const free = [...conns];
  const waiting: number[] = [];
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let inFlight = 0;
  let drained: (() => void) | null = null;

  const start = (due: number, conn: Conn) => {
    sent++;
    inFlight++;
    conn.send(req.next(), (status) => {
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
    // A timer, never a setImmediate spin: spinning until the next arrival costs the generator
    // CPU taken from the two cores it measures. A timer fires
    // up to about a millisecond late; that lateness counts in the latency (it is measured from
    // the due time), so it can only make the figures worse.
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5, next - performance.now()))));
  }
  if (inFlight > 0) await new Promise<void>((r) => (drained = r));
  for (const c of conns) c.socket.destroy();
  const ok = Object.entries(statuses).filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  return { sent, ok, statuses, ...quantiles(latencies) };
}
