// Which websites may show the shop's pages in a frame (docs/shop.md, "Embedding"): the shop
// settings' allowed websites. The shop pages and the manage-booking pages build their
// Content-Security-Policy with these, so a page is framed only by the museum's own sites.
import type { FastifyReply } from 'fastify';
import { pageCsp } from '../csp.ts';

/** The `frame-ancestors` source list: this origin plus the allowed websites (origins only). */
export function frameAncestors(origins: readonly string[]): string {
  const safe = origins.filter((o) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o));
  return ["'self'", ...safe].join(' ');
}

/** The shop's strict CSP (http/csp.ts), framed only by the allowed websites unless `noFraming`. */
export function shopCsp(origins: readonly string[], extra: { formAction?: string[]; noFraming?: boolean } = {}): string {
  return pageCsp({ formAction: extra.formAction, frameAncestors: extra.noFraming ? "'none'" : frameAncestors(origins) });
}

/**
 * Sets the shop page headers on a reply: the CSP above, and no X-Frame-Options (its DENY, set for
 * every answer, would forbid what frame-ancestors allows; browsers that know CSP ignore it anyway).
 */
export function shopPageHeaders(reply: FastifyReply, origins: readonly string[]): void {
  reply
    .header('content-security-policy', shopCsp(origins))
    .removeHeader('x-frame-options')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}
