// The shop's browser security: a strict Content-Security-Policy (scripts, styles, images and
// forms from this origin only: no inline code, no third-party request; a form may go on to the
// payment provider's page only by our redirect), no framing (/shop/embed.js sets its own rule),
// and a visitor cookie that doubles as the CSRF token (double submit: a form's `_csrf` field
// must equal it; another site can neither read the cookie nor set it, SameSite=Lax).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { shopCsp } from './frameAncestors.ts';

// The same policy as framed pages (frameAncestors.ts), with framing refused.
export const SHOP_CSP = shopCsp([], { noFraming: true });

export function shopHeaders(reply: FastifyReply) {
  reply
    .header('content-security-policy', SHOP_CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
}

const secure = (req: FastifyRequest) => req.protocol === 'https';
export const visitorCookie = (req: FastifyRequest) => (secure(req) ? '__Host-atrium_shop' : 'atrium_shop');
export const cartCookie = (req: FastifyRequest) => (secure(req) ? '__Host-atrium_cart' : 'atrium_cart');
export const LANG_COOKIE = 'atrium_shop_lang';

export function cookieOptions(req: FastifyRequest, maxAgeSeconds?: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secure(req), ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}) };
}

const VISITOR = /^[A-Za-z0-9_-]{43}$/;

/** The visitor's id (made on the first page): the per-visitor limits' key and the CSRF token. */
export function visitorId(req: FastifyRequest, reply: FastifyReply): string {
  const have = req.cookies[visitorCookie(req)];
  if (have && VISITOR.test(have)) return have;
  const fresh = randomBytes(32).toString('base64url');
  reply.setCookie(visitorCookie(req), fresh, cookieOptions(req, 30 * 24 * 3600));
  // Later reads in this request (the form's hidden field) see the new id.
  req.cookies[visitorCookie(req)] = fresh;
  return fresh;
}

/** Whether a form's `_csrf` matches the visitor cookie it came with. */
export function csrfOk(req: FastifyRequest): boolean {
  const cookie = req.cookies[visitorCookie(req)];
  const given = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof given !== 'string' || !cookie || !VISITOR.test(cookie)) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(cookie);
  return a.length === b.length && timingSafeEqual(a, b);
}
