// Bounded closed-loop load: fixed duration, fixed connections (each sends its next request when
// the last is answered), 127.0.0.1 only. The generator is raw-http.ts's lean client; with
// BENCH_LOADGEN=autocannon it is autocannon, which spends more CPU per request on the cores it
// measures.
import autocannon from 'autocannon';
import { connect, quantiles, requests } from './raw-http.ts';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Builds each request body (varied per request), for POSTs. */
  body?: () => unknown;
  /** Builds each request path (varied per request). */
  path?: () => string;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  return process.env.BENCH_LOADGEN === 'autocannon' ? withAutocannon(spec) : closedLoop(spec);
}

/** Each connection sends its next request as soon as the last one is answered, for `seconds`. */
async function closedLoop(spec: LoadSpec): Promise<LoadResult> {
  const req = requests(spec);
  const conns = await Promise.all(Array.from({ length: spec.connections }, () => connect(req.host, req.port)));
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + spec.seconds * 1000;
  await Promise.all(conns.map((conn) => new Promise<void>((done) => {
    const go = () => {
      const sent = performance.now();
      if (sent >= end) return done();
      conn.send(req.next(), (status) => {
        if (status === 'error') {
          errors++;
          return done();
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
        latencies.push(performance.now() - sent);
        go();
      });
    };
    go();
  })));
  const elapsed = (performance.now() - t0) / 1000;
  for (const c of conns) c.socket.destroy();
  const ok = Object.entries(statuses).filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  const answered = latencies.length;
  const { p50, p99 } = quantiles(latencies);
  return { rps: Math.round(answered / elapsed), p50, p99, ok, non2xx: answered - ok, errors, statuses };
}

async function withAutocannon(spec: LoadSpec): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(spec.url)) throw new Error('load tests target 127.0.0.1 only');
  const statuses: Record<string, number> = {};
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    method: spec.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(spec.headers ?? {}) },
    requests: [
      {
        setupRequest: (req) => {
          const out = { ...req };
          if (spec.path) out.path = spec.path();
          if (spec.body) out.body = JSON.stringify(spec.body());
          return out;
        },
        onResponse: (status: number) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses,
  };
}

/**
 * One scenario of a paired benchmark: a 2 s warm-up so JIT and pools are hot, the measured run
 * against the server under test (its RSS read right after), then the same for the baseline right
 * after it, so both see the same machine.
 */
export async function paired(a: LoadSpec, b: LoadSpec, rssMb: () => number): Promise<{ atrium: LoadResult; baseline: LoadResult; rssMb: number }> {
  await load({ ...a, seconds: 2 });
  const atrium = await load(a);
  const rss = rssMb();
  await load({ ...b, seconds: 2 });
  const baseline = await load(b);
  return { atrium, baseline, rssMb: rss };
}
