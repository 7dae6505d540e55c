// The visitor shop under /shop (docs/api-contract.md §20), an encapsulated Fastify context like the
// console: its cookie and form parsers, hooks and error pages apply to shop routes only. It is
// another transport over the same domain verbs as the JSON API: catalogue reads act as an
// anonymous caller (what the 'shop' channel offers), holds and orders through the shop's own
// account (domain/shop/principal.ts). Every POST carries the visitor's CSRF token.
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { anonymous } from '../../domain/principal.ts';
import type { Ctx } from '../../domain/context.ts';
import { shopAccountId, shopPrincipal } from '../../domain/shop/principal.ts';
import { assetRoutes } from './routes/assets.ts';
import { cartRoutes } from './routes/cart.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { orderRoutes } from './routes/order.ts';
import { giftCardRoutes } from './routes/giftCard.ts';
import { codeSaleRoutes } from './routes/codeSale.ts';
import { shopErrors, showError } from './errors.ts';
import { shopLocale, type ShopLocale } from './i18n.ts';
import { limitsFromEnv, shopLimiter } from './limits.ts';
import { csrfOk, LANG_COOKIE, shopHeaders } from './security.ts';
import type { ShopDeps } from './deps.ts';
import { readAfresh, type Keep } from './offers.ts';
import { shared } from './render.ts';
import { memoryLimiter } from '../../ops/limiter.ts';
import { named } from '../plugin-name.ts';

declare module 'fastify' {
  interface FastifyRequest {
    shopLocale: ShopLocale;
    /** Holds and orders: the shop's account. */
    shopCtx: Ctx;
    /** Catalogue and availability reads: an anonymous caller, as the JSON API answers one. */
    readCtx: Ctx;
    /** Catalogue records (never availability) through the JSON API's answer cache (offers.ts). */
    shopKeep: Keep;
  }
}

export function shopPlugin(deps: ShopDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: 32 * 1024 });
    const base = { db: deps.db, clock: deps.clock, config: deps.config, ...(deps.masterData ? { masterData: deps.masterData } : {}), ...(deps.testing ? { testing: deps.testing } : {}) };
    const readCtx: Ctx = { ...base, principal: anonymous };
    // The answer cache the API keeps (src/cache/responses.ts), when it keeps one: the shop's
    // catalogue reads are cleared by the same catalogue changes as the API's answers.
    const answers = app.catalogAnswers;
    // A kept value is the same object until a catalogue change replaces it: kept pages name it by
    // identity in their key (render.ts#shared) instead of by its JSON.
    const keep: Keep = answers
      ? async (key, load) => {
        const v = await answers.value(`shop|${key}`, deps.clock.now(), load, (x) => JSON.stringify(x).length);
        return answers.live ? shared(v) : v;
      }
      : readAfresh;
    app.decorateRequest('shopLocale', 'de');
    app.decorateRequest('shopCtx', null as unknown as Ctx);
    app.decorateRequest('readCtx', null as unknown as Ctx);
    app.decorateRequest('shopKeep', readAfresh);
    app.addHook('onRequest', async (req, reply) => {
      shopHeaders(reply);
      const q = req.query as Record<string, unknown> | undefined;
      req.shopLocale = shopLocale(q?.lang, req.cookies[LANG_COOKIE], req.headers['accept-language']);
      if (q?.lang === req.shopLocale) reply.setCookie(LANG_COOKIE, req.shopLocale, { path: '/', sameSite: 'lax', maxAge: 365 * 24 * 3600 });
      req.readCtx = readCtx;
      req.shopKeep = keep;
      req.shopCtx = { ...base, principal: shopPrincipal(await shopAccountId(deps.db)) };
    });
    app.addHook('preHandler', async (req, reply) => {
      if (req.method === 'POST' && !csrfOk(req)) return showError(req, reply, 403, 'error.csrf');
    });
    shopErrors(app);
    const counts = deps.limiter ?? memoryLimiter();
    const limiter = shopLimiter(counts, deps.limits ?? limitsFromEnv(process.env));
    await app.register(named(assetRoutes));
    await app.register(named(catalogRoutes));
    await app.register(named(cartRoutes(limiter), 'cartRoutes'));
    await app.register(named(checkoutRoutes(limiter), 'checkoutRoutes'));
    await app.register(named(orderRoutes));
    await app.register(named(giftCardRoutes(counts), 'giftCardRoutes'));
    await app.register(named(codeSaleRoutes(limiter), 'codeSaleRoutes'));
  };
}
