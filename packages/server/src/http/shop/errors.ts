// Every failure on a shop page is a page in the visitor's language, never a stack trace: known
// domain errors (sold out, hold expired, limits) in plain words with a way back, field problems
// listed, anything unexpected a reference number that matches the log line.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { STATUS } from '../status.ts';
import { shopTranslator } from './i18n.ts';
import { renderPage } from './render.ts';

const BY_CODE: Partial<Record<string, string>> = {
  NOT_FOUND: 'error.notfound',
  NOT_BOOKABLE: 'error.notbookable',
  SLOT_SOLD_OUT: 'error.soldout',
  QUANTITY_ABOVE_CAPACITY: 'error.soldout',
  RESERVATION_EXPIRED: 'error.expired',
  ORDER_EXPIRED: 'error.orderexpired',
  ORDER_CANCELLED: 'error.ordercancelled',
  RATE_LIMITED: 'error.ratelimited',
  HOLD_LIMIT_EXCEEDED: 'error.ratelimited',
  CAPACITY_BUSY: 'error.busy',
  FOREIGN_ID_CONFLICT: 'error.cartused',
  CLOSED: 'error.closed',
  DATE_IN_PAST: 'error.past',
  LANGUAGE_NOT_AVAILABLE: 'error.language',
  PAYMENT_PROVIDER_ERROR: 'error.payment',
  PAYMENT_PROVIDER_UNAVAILABLE: 'error.payment',
  SERVICE_UNAVAILABLE: 'error.unavailable',
};

/** Where "back" leads: the page the visitor came from inside the shop, else the cart or home. */
function backLink(req: FastifyRequest): string {
  const ref = req.headers.referer;
  try {
    if (ref) {
      const u = new URL(ref);
      if (u.pathname.startsWith('/shop')) return u.pathname + u.search;
    }
  } catch {
    /* not a URL */
  }
  return '/shop';
}

export function showError(req: FastifyRequest, reply: FastifyReply, status: number, key: string, details: string[] = []) {
  const t = shopTranslator(req.shopLocale);
  return renderPage(req, reply, 'error', { title: t('error.title'), message: t(key, { id: req.id }), details, back: backLink(req) }, status);
}

function holdsNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(holdsNul);
  return !!v && typeof v === 'object' && Object.values(v).some(holdsNul);
}

export function shopErrors(app: FastifyInstance) {
  app.addHook('preHandler', async (req, reply) => {
    if (holdsNul(req.query) || holdsNul(req.body)) return showError(req, reply, 422, 'error.invalid');
  });
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof DomainError) {
      if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
      const key = BY_CODE[err.code] ?? 'error.invalid';
      return showError(req, reply, STATUS[err.code] ?? 422, key, key === 'error.invalid' ? (err.errors ?? [err.message]) : []);
    }
    if (err.validation || err.statusCode === 400 || err.statusCode === 415 || err.statusCode === 413) {
      return showError(req, reply, err.statusCode === 413 ? 413 : 422, 'error.invalid');
    }
    req.log.error({ err, request_id: req.id }, 'shop request failed');
    return showError(req, reply, 500, 'error.internal');
  });
  app.setNotFoundHandler(async (req, reply) => showError(req, reply, 404, 'error.notfound'));
}
