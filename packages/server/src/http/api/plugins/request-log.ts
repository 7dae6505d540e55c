// One structured log line per request, written when the response is complete (spec 7.5 from the
// server side): status, method, path with query (secret query values masked), duration, who
// called (account id and class, the token's last 4 characters), the `error`/`errors`/`code` of a
// failure, and the request id (`reqId`, the same value as the X-Request-Id header and the body's
// `request_id`). Fastify's own per-request lines are switched off in app.ts so this is the only one.
// A full token never reaches a line: the Authorization header is never logged, and any
// token-shaped string in the URL is masked as well as the named query parameters.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface Failure {
  error?: string;
  errors?: string[];
  code?: string;
}

const FAILURE = Symbol('atrium.failure');
const CAPTURING = Symbol('atrium.capturing');

type WithFailure = FastifyRequest & { [FAILURE]?: Failure };

/** The `error`/`errors`/`code` of the error body this request was answered with, if any. */
export function failureOf(req: FastifyRequest): Failure | undefined {
  return (req as WithFailure)[FAILURE];
}

/** Reads error bodies as they are sent (once per app, however many plugins ask). */
export function captureFailures(app: FastifyInstance) {
  const flagged = app as FastifyInstance & { [CAPTURING]?: boolean };
  if (flagged[CAPTURING]) return;
  flagged[CAPTURING] = true;
  app.addHook('onSend', (req, reply, payload, done) => {
    capture(req, reply.statusCode, payload);
    done(null, payload);
  });
}

function capture(req: FastifyRequest, status: number, payload: unknown): void {
  if (status < 400 || typeof payload !== 'string' || payload.length > 64 * 1024) return;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    const f: Failure = {};
    if (typeof body.error === 'string') f.error = body.error;
    if (Array.isArray(body.errors)) f.errors = body.errors.filter((e): e is string => typeof e === 'string');
    if (typeof body.code === 'string') f.code = body.code;
    (req as WithFailure)[FAILURE] = f;
  } catch {
    // not JSON: nothing to capture
  }
}

// Values never logged: secrets, and personal data a search or filter may carry (docs/operations.md,
// "Logs"). `q` is free search text, which is usually a name or an e-mail address.
const SECRET_PARAMS = new Set([
  'token', 'access_token', 'api_key', 'secret', 'password',
  'email', 'mail', 'name', 'first_name', 'last_name', 'firstname', 'lastname', 'surname', 'given_name',
  'family_name', 'phone', 'mobile', 'q', 'query', 'search', 'contact', 'address', 'street', 'birthday', 'code', 'codes',
]);
// Bearer tokens (atr_<instance>_<43 chars>) wherever they appear, e.g. pasted into a path.
const BEARER_SHAPE = /atr_[a-z0-9]{1,16}_[A-Za-z0-9_-]{43}/g;
// Manage-booking links (/shop/manage/mb_<43 chars>): the path is the visitor's only authority.
const MANAGE_SHAPE = /mb_[A-Za-z0-9_-]{43}/g;
// The shop's order pages (/shop/orders/<order token>/…): the token opens the visitor's order.
const SHOP_ORDER_SHAPE = /(\/shop\/orders\/)([^/?#]+)/g;
// Staff set-password links (/console/set-password/<token>): the token sets an account's password.
const SET_PASSWORD_SHAPE = /(\/console\/set-password(?:\/|%2F))([^/?#]+)/gi;
// E-mail addresses wherever they appear (a path segment, an unnamed parameter), raw or %40-escaped:
// what /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi matches, replaced by ****.
// That pattern, searched by the regular expression engine, restarts at every position of a long
// run of such characters and reads to the run's end: time that grows with the square of the URL's
// length. maskEmails finds the same matches in one pass over each run.
const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN_CHAR = /[A-Za-z0-9-]/;

/** Where the e-mail domain starting at `at` ends (a label, then at least one `.label`), or -1. */
function domainEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && DOMAIN_CHAR.test(text[i]!)) i += 1;
  if (i === at) return -1;
  let end = -1;
  while (text[i] === '.' && i + 1 < text.length && DOMAIN_CHAR.test(text[i + 1]!)) {
    i += 1;
    while (i < text.length && DOMAIN_CHAR.test(text[i]!)) i += 1;
    end = i;
  }
  return end;
}

/** The length of the separator (`@` or `%40`) at `i`, or 0. */
function separatorAt(text: string, i: number): number {
  if (text[i] === '@') return 1;
  return text[i] === '%' && text[i + 1] === '4' && text[i + 2] === '0' ? 3 : 0;
}

function maskEmails(text: string): string {
  // Most URLs have no @ at all: nothing to search.
  if (!text.includes('@') && !/%40/i.test(text)) return text;
  let out = '';
  let from = 0; // text before this is in `out`
  let pos = 0;
  while (pos < text.length) {
    if (!LOCAL_CHAR.test(text[pos]!)) {
      pos += 1;
      continue;
    }
    // A run of local-part characters from `pos`; an @ can only follow it, a %40 is inside it. As
    // the pattern's greedy local part does, take the last separator with a domain after it.
    let runEnd = pos;
    while (runEnd < text.length && LOCAL_CHAR.test(text[runEnd]!)) runEnd += 1;
    let matchEnd = -1;
    for (let i = pos + 1; i <= runEnd; i += 1) {
      const sep = separatorAt(text, i);
      if (sep === 0) continue;
      const end = domainEnd(text, i + sep);
      if (end > 0) matchEnd = end;
    }
    if (matchEnd < 0) {
      pos = runEnd;
      continue;
    }
    out += `${text.slice(from, pos)}****`;
    from = pos = matchEnd;
  }
  return from === 0 ? text : out + text.slice(from);
}

function paramName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // malformed escape: compare the raw text
  }
  return name.replace(/\[\]$/, '').toLowerCase();
}

/** The URL as requested, with the values of secret or personal query parameters and any
 * e-mail address replaced by `****`, and token-shaped strings cut to their last 4 characters. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  let out = url;
  if (q >= 0) {
    const query = url
      .slice(q + 1)
      .split('&')
      .map((part) => {
        const eq = part.indexOf('=');
        const name = eq >= 0 ? part.slice(0, eq) : part;
        return eq >= 0 && SECRET_PARAMS.has(paramName(name)) ? `${name}=****` : part;
      })
      .join('&');
    out = `${url.slice(0, q)}?${query}`;
  }
  out = out.replace(BEARER_SHAPE, (t) => `atr_****${t.slice(-4)}`).replace(MANAGE_SHAPE, (t) => `mb_****${t.slice(-4)}`)
    .replace(SHOP_ORDER_SHAPE, (_, p: string, t: string) => `${p}****${t.slice(-4)}`);
  return maskEmails(out).replace(SET_PASSWORD_SHAPE, (_, p: string) => `${p}****`);
}

/** Last 4 characters of the presented bearer value; nothing for values too short to be a token. */
function presentedLast4(req: FastifyRequest): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m && m[1]!.length >= 16 ? m[1]!.slice(-4) : undefined;
}

export function requestLogging(app: FastifyInstance) {
  captureFailures(app);
  app.addHook('onResponse', (req, reply, done) => {
    logLine(req, reply);
    done();
  });
}

function logLine(req: FastifyRequest, reply: FastifyReply): void {
  const level = reply.statusCode >= 500 ? 'error' : 'info';
  // Nothing to build (the masked URL above all) for a line the level leaves out. A logger that
  // cannot say (Fastify's no-op one) gets the line.
  const log = req.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  if (log.isLevelEnabled && !log.isLevelEnabled(level)) return;
  const p = req.principal;
  const failure = failureOf(req);
  const line: Record<string, unknown> = {
    status: reply.statusCode,
    method: req.method,
    path: maskUrl(req.url),
    duration_ms: Math.round(reply.elapsedTime * 10) / 10,
  };
  if (p?.kind === 'account') {
    line.account_id = p.accountId;
    line.account_class = p.access;
    line.token_last4 = p.tokenLast4;
  } else {
    line.account_class = p ? 'anonymous' : undefined;
    const last4 = presentedLast4(req);
    if (last4) line.token_last4 = last4;
  }
  if (failure) Object.assign(line, failure);
  if (level === 'error') req.log.error(line, 'request failed');
  else req.log.info(line, 'request');
}
