// Master data carries an ETag and a private max-age and answers If-None-Match with 304 (spec 1.3:
// clients cache master data and refresh daily); availability is live and never cached.
// The ETag is a hash of the exact bytes sent, so it changes whenever the content does, per caller
// context included (Vary: Authorization).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Answers kept by the in-process answer cache (src/cache/responses.ts) are the same Buffer object
// on every hit; their ETag is remembered by that object instead of hashing ~10–50 KB per request
// again. A WeakMap: an entry goes when the answer cache lets go of its Buffer.
const keptEtags = new WeakMap<Buffer, string>();

function etagOf(payload: string | Buffer, kept: boolean): string {
  const memo = kept && Buffer.isBuffer(payload);
  if (memo) {
    const known = keptEtags.get(payload);
    if (known) return known;
  }
  const etag = `W/"${createHash('sha1').update(payload).digest('base64url').slice(0, 27)}"`;
  if (memo) keptEtags.set(payload, etag);
  return etag;
}

export function caching(app: FastifyInstance, maxAge: number) {
  app.addHook('onSend', (req, reply, payload, done) => {
    done(null, validated(req, reply, payload));
  });
  function validated(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
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
    // Kept by the answer cache: a hit, or the miss that stored these bytes.
    const etag = etagOf(payload, reply.getHeader('x-atrium-cache') !== undefined);
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
  }
}
