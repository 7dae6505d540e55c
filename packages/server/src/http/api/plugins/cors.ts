// Cross-origin access for browsers (ATRIUM_CORS_ORIGINS). Off by default: partners call the API
// from their servers, where CORS does not apply, and tokens never belong in browser code
// (spec 5.7). With origins configured, pages on those origins may only READ what anonymous callers
// may read (a shop page showing tickets and availability):
// - only GET and HEAD get Access-Control-Allow-Origin; a browser cannot read the answer of a
//   cross-origin write, and a JSON write needs a preflight, which names only GET and HEAD;
// - `Authorization` is not an allowed request header, so a browser refuses to send a token
//   cross-origin at all (the preflight for it fails);
// - no credentials (the API uses no cookies).
// Anything not allowed simply gets no CORS headers; the browser then blocks it.
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../../../config.ts';

const READ = ['GET', 'HEAD'];
/**
 * Request headers a cross-origin page may send (beyond the CORS-safelisted ones). go~mus browser
 * shops send `X-Shop-Url` (their shop's address) on every call; Atrium ignores its value, but
 * without it in the list the browser would refuse those shops' reads at the preflight.
 */
const ALLOWED_HEADERS = ['Accept', 'Accept-Language', 'If-None-Match', 'X-Request-Id', 'X-Shop-Url'];
/** Response headers a cross-origin page may read (beyond the safelisted ones). */
const EXPOSED_HEADERS = ['X-Request-Id', 'ETag', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

function allowed(req: FastifyRequest): boolean {
  if (req.method === 'OPTIONS') {
    // A preflight names the method of the request to come; a bare OPTIONS is no preflight and is
    // answered like any other method (405 with Allow).
    const wanted = req.headers['access-control-request-method'];
    return typeof wanted === 'string' && READ.includes(wanted.toUpperCase());
  }
  return READ.includes(req.method);
}

/**
 * Must run before errors.ts's `onRoute` shadow router is installed: the plugin registers a
 * catch-all `OPTIONS *` route for preflights, which would otherwise make every unknown path look
 * like "wrong method" (405) instead of "no such route" (404).
 */
export async function cors(app: FastifyInstance, config: Pick<Config, 'corsOrigins'>) {
  if (config.corsOrigins.length === 0) return;
  const origins = config.corsOrigins.includes('*') ? '*' : config.corsOrigins;
  const base: FastifyCorsOptions = {
    origin: origins,
    methods: READ,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    hook: 'onRequest',
  };
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (req, cb) => {
      const origin = req.headers.origin;
      // No Origin: not a cross-origin browser request. Not allowed: no CORS headers at all (the
      // plugin alone would still send Allow-Methods etc. to a foreign origin's preflight).
      const known = typeof origin === 'string' && (origins === '*' || origins.includes(origin));
      if (!known || !allowed(req)) return cb(null, { ...base, origin: false });
      cb(null, base);
    },
  });

  // The answer depends on Origin, so shared caches must key on it. The caching plugin sets Vary
  // in an app-level onSend hook; a route-level hook runs after it and adds Origin to the list.
  const varyOrigin: onSendHookHandler = async (_req, reply: FastifyReply, payload) => {
    const vary = String(reply.getHeader('vary') ?? '');
    const parts = vary.split(',').map((s) => s.trim()).filter(Boolean);
    if (!parts.some((p) => p.toLowerCase() === 'origin' || p === '*')) {
      reply.header('vary', [...parts, 'Origin'].join(', '));
    }
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const existing = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
    route.onSend = [...existing, varyOrigin];
  });
}
