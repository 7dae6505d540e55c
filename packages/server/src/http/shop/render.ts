// Server-side rendering of shop pages: Eta templates from views/ with autoescaping (`<%= %>`
// escapes; `<%~ %>` only for the layout's body), the visitor's language, the settings and the
// data every page's frame needs (the CSRF token, the cart's size, the language switch).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCart } from './cart.ts';
import { shopFormatters, shopTranslator } from './i18n.ts';
import { visitorId } from './security.ts';
import { shopCsp } from './frameAncestors.ts';
import { shopSettings } from './settings.ts';
import { shopPicture } from './picture.ts';

const views = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'views');
const eta = new Eta({ views, cache: true, autoEscape: true, autoTrim: false });

/** The current path and query with `lang` set: the language switch's links. */
function langLink(url: string, lang: string): string {
  const u = new URL(url, 'http://x');
  u.searchParams.set('lang', lang);
  return u.pathname + u.search;
}

export async function renderPage(req: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown> = {}, status = 200) {
  const locale = req.shopLocale;
  const settings = await shopSettings(req.shopCtx, req.shopLocale);
  // Websites the admin allowed may frame the shop; without any, framing stays refused.
  if (settings.embedOrigins.length) reply.header('content-security-policy', shopCsp(settings.embedOrigins)).removeHeader('x-frame-options');
  const cart = readCart(req);
  const html = eta.render(`./${view}`, {
    title: '',
    notice: null,
    ...data,
    t: shopTranslator(locale),
    fmt: shopFormatters(locale),
    locale,
    settings,
    intro: settings.texts[locale].intro,
    csrf: visitorId(req, reply),
    cartCount: cart.order ? 0 : cart.lines.length,
    langLinks: { de: langLink(req.url, 'de'), en: langLink(req.url, 'en') },
    currency: req.shopCtx.config.currency,
    pic: shopPicture,
  });
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** After a POST: on to a page (303, so reload or back does not repeat the POST). */
export function seeOther(reply: FastifyReply, url: string) {
  return reply.code(303).header('location', url).send();
}
