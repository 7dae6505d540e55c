// Master data carries an ETag and a private max-age and answers If-None-Match with 304 (spec 1.3:
// clients cache master data and refresh daily); availability is live and never cached.
// The ETag is a hash of the exact bytes sent, so it changes whenever the content does, per caller
// context included (Vary: Authorization).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

// Answers served from the in-process answer cache (src/cache/responses.ts) are the same string
// object every time; their ETag is remembered by that string (V8 caches a string's hash, so the
// lookup does not re-read it) instead of hashing ~10–50 KB per request again. Only hits are
// remembered, so the map holds no strings the answer cache does not hold anyway; it is bounded
// like that cache.
const hitEtags = new Map<string, string>();
const HIT_ETAGS_MAX = 2_000;

function etagOf(payload: string | Buffer, memo: boolean): string {
  if (memo && typeof payload === 'string') {
    const known = hitEtags.get(payload);
    if (known) return known;
  }
  const etag = `W/"${createHash('sha1').update(payload).digest('base64url').slice(0, 27)}"`;
  if (memo && typeof payload === 'string') {
    if (hitEtags.size >= HIT_ETAGS_MAX) hitEtags.clear();
    hitEtags.set(payload, etag);
  }
  return etag;
}

export function caching(app: FastifyInstance, maxAge: number) {
  app.addHook('onSend', async (req, reply, payload) => {
    const mode = req.routeOptions.config?.cache;
    if (!mode || reply.statusCode !== 200) {
      if (mode && reply.statusCode >= 400) reply.header('cache-control', 'no-store');
      return payload;
    }
    if (mode === 'live') {
      reply.header('cache-control', 'no-store');
      return payload;
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = etagOf(payload, reply.getHeader('x-atrium-cache') === 'hit');
    reply.header('etag', etag);
    reply.header('cache-control', `private, max-age=${maxAge}`);
    reply.header('vary', 'Authorization, Accept-Language');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
      // A 304 has no body, so it names no media type: a JSON Content-Type on it misleads
      // validating proxies (it describes a body that is not there).
      reply.code(304);
      reply.removeHeader('content-length');
      reply.removeHeader('content-type');
      return '';
    }
    return payload;
  });
}
