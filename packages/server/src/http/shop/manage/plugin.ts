// The manage-booking pages under /shop/manage/:token (docs/shop.md), an encapsulated Fastify
// context like the console: its own form parser, cookie, headers and error pages. The token in
// the path is the visitor's only authority; forms also carry a double-submit CSRF token (cookie
// and field) so another site cannot post a cancellation with a link it learnt. Unknown tokens
// answer one 404 page; an address with too many of them gets 429 pages for a while.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../domain/clock.ts';
import { DomainError } from '../../../domain/errors.ts';
import { getShopSettings } from '../../../domain/shop/settings.ts';
import { STATUS } from '../../status.ts';
import { shopPageHeaders } from '../frameAncestors.ts';
import { pickLocale, translator } from './i18n.ts';
import { memoryLimiter, type Limiter } from '../../../ops/limiter.ts';
import { renderManage } from './render.ts';
import { manageRoutes } from './routes.ts';
import { named } from '../../plugin-name.ts';

export interface ManageDeps {
  db: Db;
  clock: Clock;
  config: Config;
  /** The app's limiter (ops/limiter.ts); a process-local one when absent. */
  limiter?: Limiter;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const CSS = readFileSync(path.join(here, 'assets/manage.css'));
const secure = (req: FastifyRequest) => req.protocol === 'https';
const csrfCookie = (req: FastifyRequest) => (secure(req) ? '__Host-atrium_manage' : 'atrium_manage');

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function showManageError(req: FastifyRequest, reply: FastifyReply, status: number, message: string, back?: string) {
  const t = translator(req.manageLocale);
  return renderManage(req, reply, 'error', { title: t('error.title'), message, back: back ?? null }, status);
}

export function shopManagePlugin(deps: ManageDeps, opts: { maxMisses?: number; windowMs?: number } = {}): FastifyPluginAsync {
  const limiter = deps.limiter ?? memoryLimiter();
  const misses = { max: opts.maxMisses ?? 20, windowMs: opts.windowMs ?? 10 * 60_000 };
  return async (app: FastifyInstance) => {
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
    app.decorateRequest('manageLocale', 'de');
    app.decorateRequest('manageCsrf', '');
    app.addHook('onRequest', async (req, reply) => {
      const settings = await getShopSettings(deps);
      shopPageHeaders(reply, settings.embedOrigins);
      req.manageLocale = pickLocale((req.query as Record<string, unknown> | undefined)?.lang, req.headers['accept-language']);
      if (req.url.startsWith('/shop/manage/assets/')) return;
      const wait = await limiter.spent(`mb:${req.ip}`, misses);
      if (wait !== null) {
        reply.header('retry-after', String(wait));
        return showManageError(req, reply, 429, translator(req.manageLocale)('error.limited'));
      }
      const have = req.cookies[csrfCookie(req)];
      req.manageCsrf = have && /^[A-Za-z0-9_-]{43}$/.test(have) ? have : randomBytes(32).toString('base64url');
      if (req.manageCsrf !== have) {
        reply.setCookie(csrfCookie(req), req.manageCsrf, { path: '/shop/manage', httpOnly: true, sameSite: 'strict', secure: secure(req) });
      }
    });
    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST') return;
      const given = (req.body as Record<string, unknown> | undefined)?._csrf;
      if (!sameToken(given, req.cookies[csrfCookie(req)] ?? '')) {
        return showManageError(req, reply, 403, translator(req.manageLocale)('error.csrf'));
      }
    });
    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      const t = translator(req.manageLocale);
      if (err instanceof DomainError) {
        if (err.code === 'NOT_FOUND') {
          await limiter.hit(`mb:${req.ip}`, misses);
          return showManageError(req, reply, 404, t('error.notfound'));
        }
        const status = STATUS[err.code] ?? 422;
        const key = `error.${err.code}`;
        const text = t(key) === key ? `${err.message}. ${t('error.other')}` : t(key);
        const token = (req.params as { token?: string } | undefined)?.token;
        return showManageError(req, reply, status, text, token ? `/shop/manage/${token}` : undefined);
      }
      if ((err.statusCode ?? 500) < 500) return showManageError(req, reply, err.statusCode!, t('error.other'));
      req.log.error({ err }, 'manage page failed');
      return showManageError(req, reply, 500, t('error.other'));
    });
    app.setNotFoundHandler(async (req, reply) => {
      await limiter.hit(`mb:${req.ip}`, misses);
      return showManageError(req, reply, 404, translator(req.manageLocale)('error.notfound'));
    });
    app.get('/assets/manage.css', { schema: { hide: true } }, async (_req, reply) =>
      reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CSS));
    await app.register(named(manageRoutes(deps), 'manageRoutes'));
  };
}
