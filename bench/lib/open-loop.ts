// Open-loop load: requests arrive at random (Poisson) times at a given mean rate, whether or not
// earlier ones were answered, as scans arrive from many independent gates. autocannon's fixed rate
// starts every connection's request at the same tick, so it measures bursts of `connections`
// requests rather than a steady rate. Latency counts from the moment a request was due (no
// coordinated omission). 127.0.0.1 only, bounded in time and in requests in flight.
import http from 'node:http';

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
  if (!/^http:\/\/127\.0\.0\.1:/.test(spec.url)) throw new Error('load tests target 127.0.0.1 only');
  const url = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.sockets });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  const pending = new Set<Promise<void>>();
  const send = (due: number) => {
    const payload = spec.body ? JSON.stringify(spec.body()) : undefined;
    const p = new Promise<void>((resolve) => {
      const req = http.request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: spec.method ?? 'GET', headers: { 'content-type': 'application/json', ...(spec.headers ?? {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
            latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      req.on('error', () => {
        statuses.error = (statuses.error ?? 0) + 1;
        resolve();
      });
      req.end(payload);
    });
    sent++;
    pending.add(p);
    void p.then(() => pending.delete(p));
  };
  const start = performance.now();
  const end = start + spec.seconds * 1000;
  let next = start;
  while (next < end) {
    const now = performance.now();
    while (next <= now && next < end) {
      send(next);
      next += -Math.log(1 - Math.random()) * (1000 / spec.rate);
    }
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5, next - performance.now()))));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (f: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] ?? NaN);
  const ok = Object.entries(statuses).filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  return { sent, ok, statuses, p50: q(0.5), p99: q(0.99), max: Math.round(latencies[latencies.length - 1] ?? NaN) };
}
