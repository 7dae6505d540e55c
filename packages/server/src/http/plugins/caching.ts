// Master data carries an ETag and a private max-age and answers If-None-Match with 304 (spec 1.3:
// clients cache master data and refresh daily); availability is live and never cached.
// The ETag is a hash of the exact bytes sent, so it changes whenever the content does, per caller
// context included (Vary: Authorization).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

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
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url').slice(0, 27)}"`;
    reply.header('etag', etag);
    reply.header('cache-control', `private, max-age=${maxAge}`);
    reply.header('vary', 'Authorization, Accept-Language');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
      reply.code(304);
      reply.removeHeader('content-length');
      return '';
    }
    return payload;
  });
}
