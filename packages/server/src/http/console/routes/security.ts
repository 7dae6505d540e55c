// The console's browser security: a strict Content-Security-Policy (scripts and styles only from
// this origin, no inline code, no eval), no framing, session and sign-in cookies (HttpOnly,
// SameSite=Lax, Secure with the __Host- prefix when the request came over TLS, as the trust-proxy
// setting reports it) and CSRF tokens compared in constant time.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageCsp } from '../../csp.ts';

export const CONSOLE_CSP = pageCsp({ frameAncestors: "'none'" });

export function consoleHeaders(reply: FastifyReply) {
  reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
}

const secure = (req: FastifyRequest) => req.protocol === 'https';
export const sessionCookie = (req: FastifyRequest) => (secure(req) ? '__Host-atrium_console' : 'atrium_console');
export const preCookie = (req: FastifyRequest) => (secure(req) ? '__Host-atrium_console_pre' : 'atrium_console_pre');
/** Marks a browser that signed in before (domain/staff/devices.ts); outlives sign-out. */
export const deviceCookie = (req: FastifyRequest) => (secure(req) ? '__Host-atrium_console_device' : 'atrium_console_device');

function cookieOptions(req: FastifyRequest, maxAgeSeconds?: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secure(req), ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}) };
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, id: string, maxAgeSeconds: number) {
  reply.setCookie(sessionCookie(req), id, cookieOptions(req, maxAgeSeconds));
}
export function setDeviceCookie(req: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number) {
  reply.setCookie(deviceCookie(req), token, cookieOptions(req, maxAgeSeconds));
}
export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(sessionCookie(req), cookieOptions(req));
}

/** The sign-in form's token (double-submit: the cookie and the field must match). */
export function preLoginToken(req: FastifyRequest, reply: FastifyReply): string {
  const have = req.cookies[preCookie(req)];
  if (have && /^[A-Za-z0-9_-]{43}$/.test(have)) return have;
  const fresh = randomBytes(32).toString('base64url');
  reply.setCookie(preCookie(req), fresh, cookieOptions(req, 3600));
  return fresh;
}

export function sameToken(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== 'string' || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The CSRF token a request carries: the form's `_csrf` field or htmx's `x-csrf-token` header. */
export function givenCsrf(req: FastifyRequest): unknown {
  const header = req.headers['x-csrf-token'];
  if (typeof header === 'string') return header;
  return (req.body as Record<string, unknown> | undefined)?._csrf;
}
