// The staff console under /console (docs/adr/0021-staff-console.md), an encapsulated Fastify
// context: its cookie and form parsers, hooks and error handler apply to console routes only, so
// the API's hot path gains no hook. Every request: strict headers; every route: the session, the
// CSRF token (non-GET) and the route's action against the user's role, before the handler.
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { roleMay } from '../../../domain/staff/permissions.ts';
import { consoleAccountId, staffPrincipal } from '../../../domain/staff/principal.ts';
import { resolveSession } from '../../../domain/staff/sessions.ts';
import { localeFromHeader, pickLocale } from '../i18n.ts';
import { assetRoutes } from './assets.ts';
import { consoleErrors, showError } from './errors.ts';
import { consoleHeaders, givenCsrf, sameToken, sessionCookie } from './security.ts';
import type { ConsoleDeps } from './deps.ts';
import { PAGES } from './pages.ts';
import { named } from '../../plugin-name.ts';

export function consolePlugin(deps: ConsoleDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
    app.decorateRequest('session', null);
    app.decorateRequest('staffCtx', null, []);
    app.decorateRequest('consoleLocale', 'de');
    app.addHook('onRequest', async (req, reply) => {
      consoleHeaders(reply);
      const q = req.query as Record<string, unknown> | undefined;
      req.consoleLocale = pickLocale(q?.lang, localeFromHeader(req.headers['accept-language']));
    });
    app.addHook('preHandler', async (req, reply) => {
      const action = req.routeOptions.config.consoleAction;
      if (action === undefined) return; // assets
      const id = req.cookies[sessionCookie(req)];
      req.session = id ? await resolveSession(deps, id) : null;
      if (req.session) req.consoleLocale = req.session.user.locale;
      if (action === 'public') return;
      if (!req.session) {
        const next = encodeURIComponent(req.method === 'GET' ? req.url : '/console/day');
        if (req.headers['hx-request']) return reply.code(401).header('hx-redirect', `/console/login?next=${next}`).send();
        return reply.code(303).header('location', `/console/login?next=${next}`).send();
      }
      if (req.method !== 'GET' && req.method !== 'HEAD' && !sameToken(givenCsrf(req), req.session.csrfToken)) {
        return showError(req, reply, 403, 'error.csrf');
      }
      const user = req.session.user;
      if (!roleMay(user.role, action)) return showError(req, reply, 403, 'error.forbidden');
      const principal = staffPrincipal(user, await consoleAccountId(deps.db));
      req.staffCtx = {
        db: deps.db,
        clock: deps.clock,
        config: deps.config,
        principal,
        staff: user,
        ...(deps.masterData ? { masterData: deps.masterData } : {}),
      };
    });
    consoleErrors(app);
    await app.register(named(assetRoutes));
    for (const page of PAGES) await app.register(named(page(deps), 'page'));
  };
}
