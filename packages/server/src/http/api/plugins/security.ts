// Response headers that make a browser treat API answers as inert data: no MIME sniffing, no
// framing (clickjacking), no loading of anything from a JSON document, no referrer leaks. They
// cost nothing for server-to-server partners, who ignore them.
//
// The interactive reference under /api-docs is an HTML page with scripts and styles; Swagger UI
// sends its own Content-Security-Policy for it, so ours would break the page and is left off there.
// Strict-Transport-Security only with ATRIUM_HSTS=1: the server itself speaks plain HTTP, and
// only the operator knows whether every client reaches it through TLS (a proxy in front).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config.ts';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/** One year; no includeSubDomains: other hosts of the domain are not ours to pin. */
export const HSTS = 'max-age=31536000';

function isDocs(url: string): boolean {
  return url === '/api-docs' || url.startsWith('/api-docs/') || url.startsWith('/api-docs?');
}

/** The headers of every API answer, also those written without Fastify (client-errors.ts). */
export function apiHeaders(config: Pick<Config, 'hsts'>): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy': API_CSP,
    ...(config.hsts ? { 'strict-transport-security': HSTS } : {}),
  };
}

export function securityHeaders(app: FastifyInstance, config: Pick<Config, 'hsts'>) {
  const { 'content-security-policy': csp, ...always } = apiHeaders(config);
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    reply.headers(always);
    if (!isDocs(req.url)) reply.header('content-security-policy', csp);
    done();
  });
}
