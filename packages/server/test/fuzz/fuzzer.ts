// Runs generated requests against an app (app.inject: no sockets, so 10k+ requests fit in a test)
// and checks every answer against the contract. One failed request never stops the run: the
// report counts passes and failures per route, so one run names every broken route at once.
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/client.ts';
import { ERROR_CODES } from '../../src/domain/errors.ts';
import { STATUS } from '../../src/http/status.ts';
import type { Operation } from './contract.ts';
import { TOKEN_CLASSES, type Pools, type TokenClass } from './fixtures.ts';
import { fingerprinter } from './fingerprint.ts';
import { requestArbitrary, type FuzzRequest, type Parts } from './requests.ts';

export interface RouteStats {
  requests: number;
  ok2xx: number;
  err4xx: number;
  passed: number;
  failed: number;
  ms: number;
}

export interface Failure {
  route: string;
  tokenClass: TokenClass;
  mutation: string;
  request: string;
  status: number;
  problems: string[];
  body: string;
}

export interface Report {
  seed: number;
  requests: number;
  durationMs: number;
  routes: Map<string, RouteStats>;
  failures: Failure[];
  failedCount: number;
  /** Answers that broke only a documented, tracked gap (see FuzzOptions.knownGap), by label. */
  known: Map<string, number>;
}

export interface FuzzOptions {
  app: FastifyInstance;
  database: Database;
  operations: Operation[];
  pools: Pools;
  /** Requests per operation × token class. */
  perCombo: number;
  seed: number;
  classes?: readonly TokenClass[];
  /**
   * Names a known, tracked contract gap when `problems` is exactly that gap; such answers are
   * counted and printed apart instead of failing the run. Anything else still fails.
   */
  knownGap?: (op: Operation, res: LightMyRequestResponse, problems: string[]) => string | undefined;
}

/** encodeURIComponent that survives lone surrogates (sent as the raw bytes they would be). */
function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return v.replace(/[\uD800-\uDFFF]/g, '\uFFFD').split('').map((c) => (c === '\uFFFD' ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

function scalar(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? '');
}

export function toInject(op: Operation, parts: Parts, token: string | undefined): InjectOptions {
  let url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    let s = scalar(parts.path[name]);
    // An empty or dot-only segment would address another route (or be normalised away).
    if (s === '' || /^\.+$/.test(s)) s = `x${s}`;
    return enc(s);
  });
  const q: string[] = [];
  for (const [k, v] of Object.entries(parts.query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => q.push(`${enc(k)}[]=${enc(scalar(x))}`));
    else if (v && typeof v === 'object') Object.entries(v).forEach(([s, x]) => q.push(`${enc(k)}[${enc(s)}]=${enc(scalar(x))}`));
    else q.push(`${enc(k)}=${enc(scalar(v))}`);
  }
  if (parts.rawQuery) q.push(parts.rawQuery);
  if (q.length) url += `?${q.join('&')}`;
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (parts.raw !== undefined) {
    payload = parts.raw;
    headers['content-type'] = parts.contentType ?? 'application/json';
  } else if (parts.body !== undefined) {
    payload = JSON.stringify(parts.body);
    headers['content-type'] = 'application/json';
  }
  return { method: op.method as InjectOptions['method'], url, headers, ...(payload !== undefined ? { payload } : {}) };
}

/** Everything the contract promises about one answer; an empty list means it holds. */
export function checkResponse(op: Operation, res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  if (status >= 500) problems.push(`server error ${status}`);
  if (!op.responses.has(status)) problems.push(`status ${status} is not documented for ${op.key}`);
  if (status >= 400) {
    let body: Record<string, unknown> | undefined;
    try {
      body = res.json();
    } catch {
      problems.push('error body is not JSON');
    }
    if (body) {
      const keys = Object.keys(body).filter((k) => k !== 'errors');
      if (keys.join() !== 'error,code,request_id') problems.push(`error body keys ${Object.keys(body).join(',')}`);
      if (typeof body.error !== 'string') problems.push('error is not a string');
      if ('errors' in body && !(Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'string'))) problems.push('errors is not a list of strings');
      if (!(ERROR_CODES as readonly unknown[]).includes(body.code)) problems.push(`unknown code ${String(body.code)}`);
      else if (STATUS[body.code as keyof typeof STATUS] !== status && !['BAD_REQUEST', 'NOT_FOUND'].includes(body.code as string)) {
        problems.push(`code ${String(body.code)} with status ${status}`);
      }
      if (body.request_id !== res.headers['x-request-id']) problems.push('request_id differs from X-Request-Id');
    }
  } else if (status >= 200 && status < 300) {
    const validate = op.responses.get(status);
    const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (status === 204) {
      if (res.body !== '') problems.push('204 with a body');
    } else if (type !== 'application/json' && op.otherTypes.get(status)?.includes(type)) {
      // A documented non-JSON answer (a report as CSV): its type is the contract, not a schema.
    } else if (validate) {
      let body: unknown;
      try {
        body = res.json();
      } catch {
        problems.push('2xx body is not JSON');
      }
      if (body !== undefined && !validate(body)) {
        const e = validate.errors?.[0];
        problems.push(`2xx body does not match the schema: ${e?.instancePath || '/'} ${e?.message ?? ''}`);
      }
    }
  }
  return problems;
}

function describe(o: InjectOptions): string {
  const s = `${o.method} ${o.url}${o.payload !== undefined ? ` ${String(o.payload)}` : ''}`;
  return s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s;
}

export async function runFuzz(opts: FuzzOptions): Promise<Report> {
  const started = performance.now();
  const fingerprint = await fingerprinter(opts.database);
  const routes = new Map<string, RouteStats>();
  const failures: Failure[] = [];
  let failedCount = 0;
  const known = new Map<string, number>();
  let requests = 0;
  let n = 0;
  for (const op of opts.operations) {
    const stats: RouteStats = routes.get(op.key) ?? { requests: 0, ok2xx: 0, err4xx: 0, passed: 0, failed: 0, ms: 0 };
    routes.set(op.key, stats);
    const arb = requestArbitrary(op, opts.pools);
    const write = op.method !== 'GET';
    // All requests of one operation are writes or none is, so the fingerprint taken after one
    // write is the "before" of the next: one fingerprint query per write instead of two.
    let before = write ? await fingerprint() : '';
    for (const cls of opts.classes ?? TOKEN_CLASSES) {
      // One seed per (operation, class): a failure reproduces with the printed seed alone.
      const samples: FuzzRequest[] = fc.sample(arb, { numRuns: opts.perCombo, seed: opts.seed + n++ });
      const one = async (req: FuzzRequest) => {
        const inject = toInject(op, req.parts, opts.pools.tokens[cls]);
        const t0 = performance.now();
        const res = await opts.app.inject(inject);
        requests++;
        stats.requests++;
        if (res.statusCode < 300) stats.ok2xx++;
        else if (res.statusCode < 500) stats.err4xx++;
        const problems = checkResponse(op, res);
        if (write) {
          const after = await fingerprint();
          if (res.statusCode >= 400 && after !== before) {
            const was = new Set(before.split(' '));
            problems.push(`rejected write changed the database: ${after.split(' ').filter((x) => !was.has(x)).join(' ')}`);
          }
          before = after;
        }
        stats.ms += performance.now() - t0;
        if (problems.length === 0) {
          stats.passed++;
          return;
        }
        const gap = opts.knownGap?.(op, res, problems);
        if (gap) {
          known.set(gap, (known.get(gap) ?? 0) + 1);
          return;
        }
        stats.failed++;
        failedCount++;
        if (failures.length < 50) {
          failures.push({ route: op.key, tokenClass: cls, mutation: req.mutation, request: describe(inject), status: res.statusCode, problems, body: res.body.slice(0, 300) });
        }
      };
      // Reads run four at a time (the database and the app then share both cores); writes run one
      // at a time, so each fingerprint difference belongs to exactly one request.
      const lanes = write ? 1 : 4;
      for (let i = 0; i < samples.length; i += lanes) await Promise.all(samples.slice(i, i + lanes).map(one));
    }
  }
  return { seed: opts.seed, requests, durationMs: Math.round(performance.now() - started), routes, failures, failedCount, known };
}

/** The one-screen summary: a line per route, then the first failures in detail. */
export function formatReport(r: Report): string {
  const lines = [`contract fuzz: ${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s (seed ${r.seed})`];
  const w = Math.max(...[...r.routes.keys()].map((k) => k.length));
  for (const [k, s] of [...r.routes].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`  ${k.padEnd(w)}  ${String(s.passed).padStart(4)} passed, ${String(s.failed).padStart(3)} failed  (2xx ${s.ok2xx}, 4xx ${s.err4xx}, ${Math.round(s.ms / s.requests)} ms/req)`);
  }
  const knownCount = [...r.known.values()].reduce((a, b) => a + b, 0);
  const passed = r.requests - r.failedCount - knownCount;
  lines.push(`total: ${passed} passed, ${r.failedCount} failed${knownCount ? `, ${knownCount} known gaps` : ''}`);
  for (const [label, n] of r.known) lines.push(`  known gap (${n}×): ${label}`);
  for (const f of r.failures.slice(0, 10)) {
    lines.push(`  FAIL ${f.route} [${f.tokenClass}] (${f.mutation}) → ${f.status}: ${f.problems.join('; ')}`, `       ${f.request}`, `       ${f.body}`);
  }
  return lines.join('\n');
}
