// A fault-injecting HTTP proxy for the client tests (127.0.0.1 only). It forwards to the real
// in-process server and, for requests matching a rule, injects one queued fault per request:
//   status        answer this status itself (the server never sees the request)
//   drop-after    forward, let the server finish (and commit), then cut the client's connection
//   status-after  forward (the server commits), then answer this status instead of the real one
//   delay         forward, then hold the real answer back for `ms` (the client may time out)
//   mutate        forward and rewrite the JSON body of the real answer
// It records every request (method, url, answered status, headers) and the peak number of requests
// in flight, and refuses more than `maxRequests` so a runaway retry loop cannot go on forever.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; raw?: Buffer }
  | { kind: 'drop-after' }
  | { kind: 'status-after'; status: number; body?: unknown }
  | { kind: 'delay'; ms: number }
  | { kind: 'mutate'; fn: (body: any) => any };

export interface Seen {
  method: string;
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  fault?: Fault['kind'];
}

interface Rule {
  method: string;
  path: RegExp;
  body?: RegExp;
  faults: Fault[];
}

export interface FaultProxy {
  url: string;
  seen: Seen[];
  peakInFlight: number;
  /** Queue faults for the next requests matching method and path (one fault per request). */
  inject(method: string, path: RegExp, ...faults: Fault[]): void;
  /** Like inject, only for requests whose body matches `body` (one record among parallel ones). */
  injectFor(method: string, path: RegExp, body: RegExp, ...faults: Fault[]): void;
  /** Drops all queued faults and the request log. */
  reset(): void;
  count(method: string, path: RegExp): number;
  close(): Promise<void>;
}

export async function faultProxy(upstream: string, maxRequests = 5000): Promise<FaultProxy> {
  const target = new URL(upstream);
  let rules: Rule[] = [];
  let total = 0;
  let inFlight = 0;
  const state: FaultProxy = {
    url: '',
    seen: [],
    peakInFlight: 0,
    inject(method, path, ...faults) {
      rules.push({ method, path, faults: [...faults] });
    },
    injectFor(method, path, body, ...faults) {
      rules.push({ method, path, body, faults: [...faults] });
    },
    reset() {
      rules = [];
      state.seen.length = 0;
      state.peakInFlight = 0;
    },
    count(method, path) {
      return state.seen.filter((s) => s.method === method && path.test(s.url.split('?')[0]!)).length;
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };

  const nextFault = (method: string, url: string, body: string): Fault | undefined => {
    const p = url.split('?')[0]!;
    for (const r of rules) {
      if (r.method === method && r.path.test(p) && (!r.body || r.body.test(body)) && r.faults.length) return r.faults.shift();
    }
    return undefined;
  };

  const server = http.createServer(async (req, res) => {
    total += 1;
    inFlight += 1;
    state.peakInFlight = Math.max(state.peakInFlight, inFlight);
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const record: Seen = { method, url, status: 0, headers: req.headers };
    state.seen.push(record);
    res.on('close', () => { inFlight -= 1; });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (total > maxRequests) {
      record.status = 503;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"proxy request budget exhausted"}');
      return;
    }
    const fault = nextFault(method, url, body.toString('utf8'));
    if (fault) record.fault = fault.kind;
    if (fault?.kind === 'status') {
      record.status = fault.status;
      const payload = fault.raw ?? Buffer.from(fault.body === undefined ? '' : JSON.stringify(fault.body));
      res.writeHead(fault.status, { 'content-type': fault.raw ? 'application/octet-stream' : 'application/json', ...fault.headers }).end(payload);
      return;
    }
    const answer = await forward(target, method, url, req.headers, body).catch(() => undefined);
    if (!answer) {
      record.status = 502;
      res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"bad gateway"}');
      return;
    }
    if (fault?.kind === 'drop-after') {
      record.status = -1;
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status-after') {
      record.status = fault.status;
      res.writeHead(fault.status, { 'content-type': 'application/json' }).end(JSON.stringify(fault.body ?? { error: 'bad gateway' }));
      return;
    }
    if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
    let out = answer.body;
    const headers = { ...answer.headers };
    if (fault?.kind === 'mutate') {
      out = Buffer.from(JSON.stringify(fault.fn(JSON.parse(out.toString('utf8')))));
      delete headers['content-length'];
      delete headers.etag;
    }
    delete headers['transfer-encoding'];
    delete headers.connection;
    record.status = answer.status;
    if (res.destroyed) return;
    res.writeHead(answer.status, headers).end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function forward(target: URL, method: string, url: string, headers: http.IncomingHttpHeaders, body: Buffer) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const { host: _host, connection: _c, ...rest } = headers;
    const up = http.request(
      { host: target.hostname, port: target.port, method, path: url, headers: { ...rest, host: target.host }, agent: false },
      (r) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => resolve({ status: r.statusCode ?? 502, headers: r.headers, body: Buffer.concat(parts) }));
        r.on('error', reject);
      },
    );
    up.setTimeout(30_000, () => up.destroy(new Error('upstream timeout')));
    up.on('error', reject);
    up.end(body);
  });
}
