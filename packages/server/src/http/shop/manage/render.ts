// Server-side rendering of the manage-booking pages: Eta templates from ./views with
// autoescaping (`<%= %>` escapes; `<%~ %>` only for the layout's body), in the visitor's language.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatters, translator, type Locale } from './i18n.ts';

const views = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'views');
const eta = new Eta({ views, cache: true, autoEscape: true, autoTrim: false });

declare module 'fastify' {
  interface FastifyRequest {
    manageLocale: Locale;
    /** The double-submit CSRF token of the manage pages (cookie and form field). */
    manageCsrf: string;
  }
}

export function renderManage(req: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown>, status = 200) {
  const locale = req.manageLocale;
  const html = eta.render(`./${view}`, {
    title: '',
    notice: null,
    ...data,
    t: translator(locale),
    fmt: formatters(locale),
    locale,
    other: locale === 'de' ? 'en' : 'de',
    path: req.url.split('?')[0],
    csrf: req.manageCsrf,
  });
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}
