// The transport: one place that sends a request and applies spec 7 and 8 to the answer.
// - GET/PUT/DELETE (endpoints marked 'idempotent') are resent after 5xx and network errors with
//   exponential backoff and jitter, up to `maxAttempts` (3–5 per spec 7.1; default 4).
// - 429 is resent after Retry-After for every method: the rate limiter refuses before anything is
//   processed, so even a POST is safe to repeat.
// - 4xx other than 429 is never resent; 401/403/404/410 in particular (spec 7.3).
// - Every failed attempt is logged as spec 7.5 asks (see logger.ts) and the final failure becomes
//   a typed error (errors.ts).
import { apiError, NetworkError, type ApiError } from './errors.ts';
import { fillPath, toQuery, type Endpoint } from './endpoints.ts';
import { maskPath, type FailedCall, type Logger } from './logger.ts';
import type { UnknownFieldReporter } from './shape.ts';

export interface TransportOptions {
  baseUrl: string;
  token: string | undefined;
  logger: Logger;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  timeoutMs: number;
  maxRetryAfterMs: number;
  correlationId: (() => string) | undefined;
  fetch: typeof fetch;
  userAgent: string;
  reporter: UnknownFieldReporter;
}

export interface CallOptions {
  params?: Record<string, string | number>;
  query?: object;
  body?: unknown;
  headers?: Record<string, string>;
  /** Overrides the endpoint's retry policy for this call (safe POSTs use 'once' and look up). */
  retry?: 'idempotent' | 'once';
  maxAttempts?: number;
  correlationId?: string;
  /** Read the body as bytes (document downloads). */
  binary?: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  bytes?: Uint8Array;
  /** Path with query as logged (secrets masked). */
  path: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Retry-After in ms (delta seconds or an HTTP date), or undefined. */
export function retryAfterMs(h: Headers): number | undefined {
  const v = h.get('retry-after');
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

/** Statuses that answer a well-formed call with a business outcome (spec 7.3), not a fault. */
const EXPECTED = new Set([404, 409, 410, 422]);

export class Transport {
  readonly tokenLast4: string | null;
  constructor(readonly o: TransportOptions) {
    this.tokenLast4 = o.token ? o.token.slice(-4) : null;
  }

  /** Exponential backoff with jitter: attempt n waits between 50% and 100% of base·2^(n-1), capped. */
  backoff(attempt: number, floorMs = 0): number {
    const ceiling = Math.min(this.o.backoffMaxMs, this.o.backoffBaseMs * 2 ** (attempt - 1));
    const jittered = ceiling / 2 + Math.random() * (ceiling / 2);
    return Math.max(jittered, Math.min(floorMs, this.o.maxRetryAfterMs));
  }

  newCorrelationId(): string {
    return this.o.correlationId?.() ?? globalThis.crypto.randomUUID();
  }

  logFailure(f: Omit<FailedCall, 'event' | 'timestamp' | 'token_last4'>): void {
    const rec: FailedCall = { event: 'atrium.call_failed', ...f, timestamp: new Date().toISOString(), token_last4: this.tokenLast4 };
    const msg = `${f.method} ${f.path} failed (${f.status || 'no answer'}): ${f.error}`;
    // An answer the caller handles as a business outcome (404, 409, 410, 422: sold out, not found,
    // already finalized) is expected and logged at info; 401/403, server and network failures that
    // end the call are errors; a failed attempt that will be retried is a warning.
    if (f.next !== 'give_up') this.o.logger.warn(rec, msg);
    else if (EXPECTED.has(f.status)) this.o.logger.info(rec, msg);
    else this.o.logger.error(rec, msg);
  }

  /** Sends a call, resending as the policy allows; resolves with a 2xx/3xx answer or throws a typed error. */
  async send(ep: Endpoint, c: CallOptions = {}): Promise<Answer> {
    const rel = fillPath(ep.template, c.params) + toQuery(c.query);
    const secrets = ep.secretParams.map((p) => String(c.params?.[p] ?? '')).filter((s) => s && !/^\d+$/.test(s));
    const shown = maskPath(`/api/v4${rel}`, secrets);
    const correlation = c.correlationId ?? this.newCorrelationId();
    const retry = c.retry ?? ep.retry;
    const max = Math.max(1, c.maxAttempts ?? this.o.maxAttempts);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= max;
      let res: Response;
      try {
        res = await this.exchange(ep, rel, c, correlation);
        // Reading the body is part of the attempt: a connection cut mid-body is a network error.
        if (res.status < 400) return await this.read(ep, res, shown, c.binary === true);
      } catch (err) {
        const again = retry === 'idempotent' && !last;
        this.logFailure({ status: 0, method: ep.method, path: shown, error: describe(err), correlation_id: correlation, attempt, next: again ? 'retry' : 'give_up' });
        if (!again) throw new NetworkError(ep.method, shown, attempt, err);
        await sleep(this.backoff(attempt));
        continue;
      }
      const body = await res.text().then(parseJson, () => undefined);
      const wait = retryAfterMs(res.headers);
      const again = !last && (res.status === 429 || (res.status >= 500 && retry === 'idempotent'));
      const err = apiError({
        status: res.status,
        error: typeof body?.error === 'string' ? body.error : res.statusText || `HTTP ${res.status}`,
        errors: Array.isArray(body?.errors) ? body.errors.map(String) : undefined,
        code: typeof body?.code === 'string' ? body.code : undefined,
        requestId: res.headers.get('x-request-id') ?? (typeof body?.request_id === 'string' ? body.request_id : undefined),
        method: ep.method,
        path: shown,
        attempts: attempt,
        retryAfterMs: wait,
      });
      this.logFailure({
        status: res.status, method: ep.method, path: shown, error: err.error,
        ...(err.errors ? { errors: err.errors } : {}), ...(err.code ? { code: err.code } : {}),
        ...(err.requestId ? { request_id: err.requestId } : {}),
        correlation_id: correlation, attempt, next: again ? 'retry' : 'give_up',
      });
      if (!again) throw err;
      await sleep(this.backoff(attempt, wait ?? 0));
    }
  }

  private async exchange(ep: Endpoint, rel: string, c: CallOptions, correlation: string): Promise<Response> {
    const headers: Record<string, string> = { accept: c.binary ? '*/*' : 'application/json', 'user-agent': this.o.userAgent, ...c.headers };
    if (REQUEST_ID.test(correlation)) headers['x-request-id'] = correlation;
    if (this.o.token) headers.authorization = `Bearer ${this.o.token}`;
    let body: string | FormData | undefined;
    // A form (picture uploads) goes as multipart/form-data; fetch sets the boundary.
    if (c.body instanceof FormData) body = c.body;
    else if (c.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(c.body);
    }
    const res = await this.o.fetch(`${this.o.baseUrl}/api/v4${rel}`, {
      method: ep.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(this.o.timeoutMs),
      redirect: 'error',
    });
    return res;
  }

  private async read(ep: Endpoint, res: Response, shown: string, binary: boolean): Promise<Answer> {
    if (binary && res.status === 200) {
      return { status: res.status, headers: res.headers, body: undefined, bytes: new Uint8Array(await res.arrayBuffer()), path: shown };
    }
    const text = await res.text();
    const body = text ? parseJson(text) : undefined;
    if (res.status === 200 || res.status === 201) this.o.reporter.check(ep.op, body);
    return { status: res.status, headers: res.headers, body, path: shown };
  }
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timeout';
  return [e?.message, e?.cause?.code ?? e?.cause?.message].filter(Boolean).join(': ') || String(err);
}

export type { ApiError };
