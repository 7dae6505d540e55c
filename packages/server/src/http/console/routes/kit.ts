// How a console page is added (see src/http/console/README.md):
//
//   consoleRoute(app, { method: 'POST', url: '/orders/:id/cancel', action: 'orders.cancel' }, async (req, reply) => {
//     await audited(req.staffCtx, (ctx) => cancelOrder(ctx, id, {...}), (order) => ({ action: 'order.cancel', ... }));
//     return seeOther(reply, `/console/orders/${id}`, 'cancelled');
//   });
//
// Before the handler runs, the plugin (plugin.ts) has resolved the session (none: to sign-in),
// checked the CSRF token on every non-GET request and the route's action against the user's
// role (permissions.ts); req.staffCtx is a domain context whose principal carries the user's
// museum scope, so domain verbs enforce scope themselves. Errors thrown (DomainError included)
// become a friendly error page.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ConsoleAction } from '../../../domain/staff/permissions.ts';
import type { StaffCtx } from '../../../domain/staff/principal.ts';
import type { ResolvedSession } from '../../../domain/staff/sessions.ts';
import type { Locale } from '../i18n.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session (console routes only); null when signed out. */
    session: ResolvedSession | null;
    /** The domain context of the signed-in staff user (console routes with an action only). */
    staffCtx: StaffCtx;
    consoleLocale: Locale;
  }
  interface FastifyContextConfig {
    /** Console routes: the action the user's role must allow; 'public' = no session needed. */
    consoleAction?: ConsoleAction | 'public';
  }
}

export interface ConsoleRoute {
  method: 'GET' | 'POST';
  /** Relative to /console. */
  url: string;
  action: ConsoleAction | 'public';
  schema?: RouteShorthandOptions['schema'];
  /** A successful call changes what the catalogue caches hold: this node clears them at once. */
  invalidatesCatalog?: boolean;
}

/** Every route registered through consoleRoute ("GET /console/orders/:id"): the role table test checks it covers them all. */
export const registeredConsoleRoutes = new Set<string>();

export function consoleRoute(
  app: FastifyInstance,
  r: ConsoleRoute,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) {
  registeredConsoleRoutes.add(`${r.method} ${app.prefix}${r.url === '/' && app.prefix ? '' : r.url}`);
  app.route({
    method: r.method,
    url: r.url,
    config: { consoleAction: r.action, ...(r.invalidatesCatalog ? { invalidatesCatalog: true } : {}) },
    schema: { hide: true, ...(r.schema ?? {}) },
    handler,
  });
}

/** A positive integer from a path or form value, or null. */
export function intParam(v: unknown): number | null {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  return /^\d{1,9}$/.test(s) && Number(s) > 0 ? Number(s) : null;
}

/** A string form/query field (first value if repeated), trimmed, at most `max` characters. */
export function field(obj: unknown, name: string, max = 500): string {
  const v = (obj as Record<string, unknown> | undefined)?.[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim().slice(0, max) : '';
}
