// Server-side rendering of console pages: Eta templates from src/http/console/views with
// autoescaping (`<%= %>` escapes; `<%~ %>` is only used for the layout's body), the message
// catalogue and formatters of the user's language, and the data every page's frame needs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatters, translator, type Locale } from '../i18n.ts';
import { MESSAGES } from '../i18n.ts';
import { navFor } from './nav.ts';

const views = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../views');
const eta = new Eta({ views, cache: true, autoEscape: true, autoTrim: false });

/** Renders a view with the frame's data; `status` defaults to 200. */
export function renderPage(req: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown> = {}, status = 200) {
  const locale: Locale = req.consoleLocale;
  const t = translator(locale);
  const q = req.query as Record<string, unknown> | undefined;
  const noticeKey = typeof q?.notice === 'string' ? `notice.${q.notice}` : '';
  const notice = noticeKey && MESSAGES[locale][noticeKey] ? t(noticeKey) : null;
  const staff = req.session?.user ?? null;
  const pathOnly = req.url.split('?')[0]!;
  const html = eta.render(`./${view}`, {
    title: '',
    notice,
    ...data,
    t,
    fmt: formatters(locale),
    locale,
    staff,
    csrf: req.session?.csrfToken ?? '',
    nav: staff ? navFor(staff.role, pathOnly) : [],
    path: pathOnly,
    zone: req.staffCtx?.config.zone ?? 'Europe/Berlin',
    currency: req.staffCtx?.config.currency ?? 'EUR',
  });
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** After a successful POST: back to a page (303, so a reload does not repeat the POST). */
export function seeOther(reply: FastifyReply, url: string, notice?: string) {
  const target = notice ? `${url}${url.includes('?') ? '&' : '?'}notice=${encodeURIComponent(notice)}` : url;
  return reply.code(303).header('location', target).send();
}
