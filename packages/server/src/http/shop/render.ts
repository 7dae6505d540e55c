// Server-side rendering of shop pages: Eta templates from views/ with autoescaping (`<%= %>`
// escapes; `<%~ %>` only for the layout's body), the visitor's language, the settings and the
// data every page's frame needs (the CSRF token, the cart's size, the language switch).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cartCount } from './cart.ts';
import { shopFormatters, shopTranslator, type ShopLocale } from './i18n.ts';
import { visitorId } from './security.ts';
import { shopCsp } from './frameAncestors.ts';
import { shopSettings } from './settings.ts';
import { shopPicture } from './picture.ts';
import { kept } from './kit.ts';
import { Lru } from '../../cache/lru.ts';

const views = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'views');
const eta = new Eta({ views, cache: true, autoEscape: true, autoTrim: false });

/** The current path and query with `lang` set: the language switch's links. */
const langLink = kept(2048, (url: string, lang: string) => `${lang}|${url}`, (url: string, lang: string) => {
  const u = new URL(url, 'http://x');
  u.searchParams.set('lang', lang);
  return u.pathname + u.search;
});

// Browsing pages are the same for every visitor but for the CSRF token in their forms: their HTML
// is kept per view and everything the view is given (the language, settings, cart size and
// language links, the live places left included), and the visitor's token goes in afterwards.
// A kept page is never stale (a sale, an edit or another setting is another key); the bound
// evicts pages of old data. Pages with a visitor's own data (cart, checkout, order) are rendered
// every time. Views are given plain data (no Map, no function), so the JSON is the whole input.
const KEPT_VIEWS = new Set(['home', 'ticket', 'event', 'tour']);
const pages = new Lru<string>(500, 16 * 1024 * 1024);
const PAGE_TTL_MS = 10 * 60_000;
// The token's stand-in while rendering: letters and digits only, which escaping leaves as they
// are; random per process, so no catalogue text contains it.
const TOKEN_MARK = `csrf${randomBytes(16).toString('hex')}`;
// What visitorId hands out: safe in an attribute without escaping.
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

// Values the catalogue cache hands out (plugin.ts) and their direct parts (a listing's arrays):
// the same objects until a change replaces them, so a kept page's key names them by a number
// instead of spelling out their JSON on every request. Anything not marked goes in as JSON.
const ids = new WeakMap<object, number>();
let lastId = 0;
export function shared<T>(v: T): T {
  if (v === null || typeof v !== 'object' || ids.has(v)) return v;
  ids.set(v, ++lastId);
  for (const part of Object.values(v)) if (part !== null && typeof part === 'object' && !ids.has(part)) ids.set(part, ++lastId);
  return v;
}

function pageKey(view: string, vars: Record<string, unknown>): string {
  let key = view;
  for (const name in vars) {
    const v = vars[name];
    const id = v !== null && typeof v === 'object' ? ids.get(v) : undefined;
    key += id === undefined ? `|${name}=${JSON.stringify(v)}` : `|${name}#${id}`;
  }
  return key;
}

function render(view: string, vars: Record<string, unknown>, locale: ShopLocale, csrf: string): string {
  return eta.render(`./${view}`, { ...vars, t: shopTranslator(locale), fmt: shopFormatters(locale), pic: shopPicture, csrf });
}

export async function renderPage(req: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown> = {}, status = 200) {
  const locale = req.shopLocale;
  const settings = await shopSettings(req.shopCtx, req.shopLocale, req.shopKeep);
  // Websites the admin allowed may frame the shop; without any, framing stays refused.
  if (settings.embedOrigins.length) reply.header('content-security-policy', shopCsp(settings.embedOrigins)).removeHeader('x-frame-options');
  const csrf = visitorId(req, reply);
  const vars = {
    title: '',
    notice: null,
    ...data,
    locale,
    settings,
    intro: settings.texts[locale].intro,
    cartCount: cartCount(req),
    langLinks: { de: langLink(req.url, 'de'), en: langLink(req.url, 'en') },
    currency: req.shopCtx.config.currency,
  };
  let html: string;
  if (KEPT_VIEWS.has(view) && TOKEN.test(csrf)) {
    const key = pageKey(view, vars);
    const now = Date.now();
    let page = pages.get(key, now);
    if (page === undefined) {
      page = render(view, vars, locale, TOKEN_MARK);
      pages.set(key, page, 2 * (key.length + page.length), now + PAGE_TTL_MS, pages.gen);
    }
    html = page.replaceAll(TOKEN_MARK, csrf);
  } else {
    html = render(view, vars, locale, csrf);
  }
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** After a POST: on to a page (303, so reload or back does not repeat the POST). */
export function seeOther(reply: FastifyReply, url: string) {
  return reply.code(303).header('location', url).send();
}
