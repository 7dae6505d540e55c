// Every failure on a console page is a page in the user's language, never a stack trace: domain
// errors show their message (and field details), a missing page or an order outside the user's
// museums the same "not found" (nothing leaks), anything unexpected a reference number that
// matches the log line.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { translator } from '../i18n.ts';
import { STATUS } from '../../status.ts';
import { renderPage } from './render.ts';

const BY_CODE: Partial<Record<string, string>> = {
  NOT_FOUND: 'error.notfound',
  FORBIDDEN: 'error.forbidden',
  SERVICE_UNAVAILABLE: 'error.unavailable',
};

function backLink(req: FastifyRequest): string {
  const ref = req.headers.referer;
  try {
    if (ref && new URL(ref).pathname.startsWith('/console/')) return new URL(ref).pathname + new URL(ref).search;
  } catch {
    /* not a URL */
  }
  return '/console/day';
}

/** A domain error in the user's language: the code's message, with the details the verb gave. */
export function domainMessage(req: FastifyRequest, err: DomainError): { message: string; details: string[] } {
  const t = translator(req.consoleLocale);
  return { message: t(`code.${err.code}`), details: err.errors ?? (err.message && err.code !== 'INTERNAL' ? [err.message] : []) };
}

export function showError(req: FastifyRequest, reply: FastifyReply, status: number, key: string, opts: { message?: string; details?: string[] } = {}) {
  const t = translator(req.consoleLocale);
  const message = opts.message ?? t(key, { id: req.id });
  return renderPage(req, reply, 'error', { title: t('error.title'), message, details: opts.details ?? [], back: backLink(req) }, status);
}

/** Whether a parsed form or query holds a NUL character anywhere (text columns cannot store it). */
function holdsNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(holdsNul);
  return !!v && typeof v === 'object' && Object.values(v).some(holdsNul);
}

export function consoleErrors(app: FastifyInstance) {
  // After the session and CSRF checks (plugin.ts registers them first), before any handler: the
  // form is answered in words instead of failing in SQL as a 500.
  app.addHook('preHandler', async (req, reply) => {
    if (req.routeOptions.config.consoleAction !== undefined && (holdsNul(req.query) || holdsNul(req.body))) {
      return showError(req, reply, 422, 'error.nul');
    }
  });
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof DomainError) {
      const key = BY_CODE[err.code];
      const status = STATUS[err.code] ?? 500;
      if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
      return showError(req, reply, status, key ?? 'error.invalid', key ? {} : domainMessage(req, err));
    }
    if (err.validation || err.statusCode === 400 || err.statusCode === 415 || err.statusCode === 413) {
      return showError(req, reply, err.statusCode === 413 ? 413 : 422, 'error.invalid');
    }
    req.log.error({ err, request_id: req.id }, 'console request failed');
    return showError(req, reply, 500, 'error.internal');
  });
  app.setNotFoundHandler(async (req, reply) => showError(req, reply, 404, 'error.notfound'));
}
