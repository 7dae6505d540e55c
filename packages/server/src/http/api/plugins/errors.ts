// One place turns every failure into the spec's body shape (7.2) plus `code` and `request_id`:
// domain errors by their code, framework errors (validation, media type, size, JSON syntax) by
// theirs, database outages as 503 with Retry-After. Unknown errors are logged with the request id
// and answered as a bare 500: never a stack trace.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { DomainError, type ErrorCode } from '../../../domain/errors.ts';
import { dbError } from '../../../db/errors.ts';
import { STATUS } from '../../status.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Routes of another protocol (the OCTO endpoint, http/octo) answer refusals made before their
     * handler (token, access, rate limit) in their own error shape.
     */
    errorShape?: (req: FastifyRequest, reply: FastifyReply, err: DomainError) => FastifyReply;
  }
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: DomainError) {
  const shape = req.routeOptions?.config?.errorShape;
  if (shape) return shape(req, reply, err);
  const status = STATUS[err.code];
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  const body: Record<string, unknown> = { error: err.message };
  if (err.errors) body.errors = err.errors;
  body.code = err.code;
  body.request_id = req.id;
  // Error bodies skip response-schema serialisation: they are always this shape.
  return reply.code(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** "querystring/per_page must be integer" → "per_page must be integer". */
function describe(issue: AjvIssue, context: string | undefined): string {
  let field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    field = field ? `${field}.${issue.params.missingProperty}` : issue.params.missingProperty;
    return `${field} is required`;
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    return `${issue.params.additionalProperty} is not allowed`;
  }
  return `${field || context || 'request'} ${issue.message ?? 'is invalid'}`;
}

// 57014: a statement cancelled by statement_timeout (db/timeouts.ts), i.e. the database did not
// finish in time: retry later, like an outage.
const DB_DOWN = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '57014', '53300', '08006', '08001', '08003']);

export function isDatabaseUnavailable(err: unknown): boolean {
  // Drizzle wraps the driver's error (DrizzleQueryError, `cause` = the pg error), so the chain
  // is walked: without this an outage during a query was a 500 instead of a 503.
  for (let e = err as { code?: string; message?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code && DB_DOWN.has(e.code)) return true;
    if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(e.message ?? '')) {
      return true;
    }
  }
  return false;
}

/**
 * A full disk, the database's (SQLSTATE 53100: it could not extend a file or write WAL) or ours
 * (ENOSPC). The write was rolled back and nothing was stored; it is an outage for the caller, and
 * for the operator a reason to be woken (logged as an error, not a warning).
 */
export function isDiskFull(err: unknown): boolean {
  if (dbError(err)?.kind === 'DISK_FULL') return true;
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code === 'ENOSPC') return true;
  }
  return false;
}
const diskFull = () =>
  new DomainError('SERVICE_UNAVAILABLE', 'the server is out of disk space, so nothing was stored; retry later', { retryAfter: 60 });

const ID_PARAM = /^\/(id|[a-z]+_id)$/;
const ID_KEYWORDS = new Set(['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const isIdIssue = (v: AjvIssue) => ID_PARAM.test(v.instancePath) && ID_KEYWORDS.has(v.keyword);

export function toDomainError(err: FastifyError & { validation?: AjvIssue[]; validationContext?: string }): DomainError | null {
  if (err instanceof DomainError) return err;
  if (err.validation) {
    // A record id in the path that cannot exist (not a number, 0, out of range) names an unknown
    // record, as go~mus answers it: 404, not 422 (docs/gomus-compatibility.md).
    if (err.validationContext === 'params' && err.validation.every(isIdIssue)) return new DomainError('NOT_FOUND', 'not found');
    return new DomainError('VALIDATION_FAILED', 'request is invalid', {
      errors: err.validation.map((v) => describe(v, err.validationContext)),
    });
  }
  switch (dbError(err)?.kind) {
    case 'LOCK_NOT_AVAILABLE':
    case 'SERIALIZATION_FAILURE':
    case 'DEADLOCK_DETECTED':
      return new DomainError('CAPACITY_BUSY', 'the slot is busy; retry once after a short delay', { retryAfter: 1 });
    // A NUL character in a body string: text and jsonb columns cannot hold it. Domains that
    // validate text say so in their own words first; this is the net under all of them (every
    // write runs in a transaction, so nothing was stored).
    case 'CHARACTER_NOT_IN_REPERTOIRE':
    case 'UNTRANSLATABLE_CHARACTER':
      return new DomainError('VALIDATION_FAILED', 'request is invalid', {
        errors: ['text must not contain a NUL character'],
      });
  }
  if (isDiskFull(err)) return diskFull();
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('PAYLOAD_TOO_LARGE', 'request body is too large');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new DomainError('PAYLOAD_TOO_LARGE', 'the uploaded file is larger than the limit (ATRIUM_MEDIA_MAX_BYTES)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('BAD_REQUEST', 'request body is empty but the content type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('BAD_REQUEST', 'request body is not valid JSON');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new DomainError('BAD_REQUEST', 'request URL is malformed');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new DomainError('BAD_REQUEST', 'a path parameter is too long');
  }
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return new DomainError('BAD_REQUEST', 'request body is not valid JSON');
  }
  if (isDatabaseUnavailable(err)) {
    return new DomainError('SERVICE_UNAVAILABLE', 'service temporarily unavailable; retry with backoff', {
      retryAfter: 5,
    });
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    const code: ErrorCode = err.statusCode === 404 ? 'NOT_FOUND' : err.statusCode === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST';
    const e = new DomainError(code, err.message || 'bad request');
    return Object.assign(e, { statusOverride: err.statusCode });
  }
  return null;
}

/** The first value under `v` that PostgreSQL cannot take: a non-finite number or a NUL in text. */
function unstorable(v: unknown, at: string, depth: number, strings = true): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${at} must be a finite number`;
  if (typeof v === 'string') return strings && v.includes('\u0000') ? `${at} must not contain a NUL character` : null;
  if (!v || typeof v !== 'object' || depth > 20) return null;
  for (const [k, x] of Object.entries(v)) {
    const p = unstorable(x, depth === 0 ? '' : at ? `${at}.${k}` : k, depth + 1, strings);
    if (p) return p;
  }
  return null;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Fastify's `frameworkErrors` option: URLs the router cannot decode (`/api/v4/%E0%A4%A`) or path
 * parameters over maxParamLength fail before any hook or error handler runs, and Fastify would
 * answer them with its own body and no X-Request-Id. This gives them the same shape as every error.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', req.id);
  reply.header('x-content-type-options', 'nosniff');
  return sendError(req, reply, toDomainError(err) ?? new DomainError('BAD_REQUEST', 'request URL is malformed'));
}

export function errorHandling(app: FastifyInstance) {
  // Fastify parses text/plain bodies by default; the API takes JSON only (docs/api-contract.md §1), so any other
  // body type is a 415 instead of a string that later fails validation with a puzzling 422.
  app.removeContentTypeParser('text/plain');
  // A shadow router of every registered path tells "wrong method" (405) from "no such route" (404).
  // Same trailing-slash and parameter rules as the real router, so `DELETE /whoami/` is a 405 too.
  const shadow = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 200 });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      try {
        shadow.on(m as 'GET', route.url, () => {});
      } catch {
        // duplicate registration (HEAD for GET etc.) is fine
      }
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const domain = toDomainError(err);
    if (!domain) {
      req.log.error({ err }, 'unhandled error');
      return sendError(req, reply, new DomainError('INTERNAL', 'internal server error'));
    }
    if (isDiskFull(err)) req.log.error({ err: { message: err.message, code: err.code } }, 'disk full');
    else if (domain.code === 'SERVICE_UNAVAILABLE') req.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
    const override = (domain as { statusOverride?: number }).statusOverride;
    if (override) {
      return reply
        .code(override)
        .type('application/json; charset=utf-8')
        .serializer(JSON.stringify)
        .send({ error: domain.message, code: domain.code, request_id: req.id });
    }
    return sendError(req, reply, domain);
  });

  // Two values pass the schemas but cannot reach PostgreSQL (found by the contract fuzzer,
  // test/fuzz), so they are refused here, after validation, as 422 instead of failing in SQL as a
  // 500: a number coerced from "1e999" or "Infinity" (ajv coerces it to Infinity and then skips
  // minimum/maximum, which only test finite numbers), and a NUL character in a query or path
  // parameter. A NUL in a body string is left to the domain's own validation (customers say
  // "City is invalid" under "customer could not be saved"), with SQLSTATE 22021/22P05 above as the
  // net under every other writer.
  app.addHook('preHandler', async (req, reply) => {
    // Only declared parameters: an unknown query parameter is ignored, whatever it holds.
    const schema = (req.routeOptions.schema ?? {}) as { querystring?: { properties?: object }; params?: { properties?: object } };
    const declared = (values: unknown, s?: { properties?: object }) =>
      Object.fromEntries(Object.entries((values ?? {}) as object).filter(([k]) => s?.properties && k in s.properties));
    const problem =
      unstorable({ query: declared(req.query, schema.querystring), params: declared(req.params, schema.params) }, '', 0) ??
      unstorable({ body: req.body }, '', 0, false);
    if (problem) return sendError(req, reply, new DomainError('VALIDATION_FAILED', 'request is invalid', { errors: [problem] }));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => m !== req.method && shadow.find(m, path));
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(req, reply, new DomainError('METHOD_NOT_ALLOWED', `method ${req.method} is not allowed here`));
    }
    return sendError(req, reply, new DomainError('ROUTE_INVALID', 'route is invalid'));
  });
}
