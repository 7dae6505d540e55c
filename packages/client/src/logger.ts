// Logging (spec 7.5). The logger is pino-compatible (`logger.warn(obj, msg)`), console by default.
// What is logged per failed call: status, full path with query (secrets masked), `error` and
// `errors`, a UTC timestamp, the correlation id, and the last 4 characters of the bearer token,
// never the token itself.

export interface Logger {
  debug?(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const consoleLogger: Logger = {
  debug: () => {},
  info: (obj, msg) => console.info(`[atrium] ${msg ?? ''}`, JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(`[atrium] ${msg ?? ''}`, JSON.stringify(obj)),
  error: (obj, msg) => console.error(`[atrium] ${msg ?? ''}`, JSON.stringify(obj)),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export interface FailedCall {
  event: 'atrium.call_failed';
  /** HTTP status, or 0 when no answer came (network error, timeout). */
  status: number;
  method: string;
  path: string;
  error: string;
  errors?: string[];
  code?: string;
  request_id?: string;
  correlation_id: string;
  timestamp: string;
  token_last4: string | null;
  attempt: number;
  /** What the client does next: retry, look the record up, or give up. */
  next: 'retry' | 'lookup' | 'give_up';
}

const SECRET_PARAM = /token|secret|key|password|reservations/i;

/** `****` plus the last 4 characters: enough to tell secrets apart in a log, useless to an attacker. */
export function maskSecret(value: string): string {
  return value.length <= 8 ? '****' : `****${value.slice(-4)}`;
}

/**
 * The path as logged: query values whose name suggests a secret (token, access_token,
 * reservations[] …) masked, and path segments the caller marked as secret (reservation tokens,
 * order tokens) masked too.
 */
export function maskPath(pathWithQuery: string, secretSegments: readonly string[] = []): string {
  const q = pathWithQuery.indexOf('?');
  let p = q < 0 ? pathWithQuery : pathWithQuery.slice(0, q);
  for (const s of secretSegments) if (s) p = p.split(`/${encodeURIComponent(s)}`).join(`/${maskSecret(s)}`);
  if (q < 0) return p;
  const params = new URLSearchParams(pathWithQuery.slice(q + 1));
  const out: string[] = [];
  for (const [k, v] of params) out.push(`${k}=${SECRET_PARAM.test(k) ? maskSecret(v) : v}`);
  return `${p}?${out.join('&')}`;
}
