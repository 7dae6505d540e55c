// Rate limits (spec 8.1, docs/api-contract.md §11; docs/operations.md, "Limits and their settings"): every
// account gets a per-account budget per minute, its own `rate_limit_per_minute` or its class's
// default (ATRIUM_RESELLER_RATE_LIMIT, ATRIUM_USER_RATE_LIMIT, ATRIUM_PUBLIC_RATE_LIMIT), and
// anonymous callers a per-IP budget (ATRIUM_ANON_RATE_LIMIT). A class default of 0 turns that
// class off. Only /api/v4 is limited: health, readiness, metrics and docs never are. The cost is
// one counter increment per request (a Map entry, or one Redis script call when Redis is set).
//
// The check runs in `preParsing`, i.e. after the auth `onRequest` hook has resolved the principal
// (the key and the budget depend on it) and before the body is read (a limited caller costs us
// no parsing). A 401 from auth is answered before this; auth counts it itself, through
// `limitRejectedCaller`, against the anonymous budget of its address (a wrong token buys no
// unlimited guessing), and answers 429 instead once that budget is spent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../../../config.ts';
import { DomainError } from '../../../domain/errors.ts';
import type { CounterStore } from '../../../ops/rate-store.ts';

const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a refused caller (bad token) as anonymous: seconds to wait when over the budget, else null. */
    limitRejectedCaller?: (req: FastifyRequest) => Promise<number | null>;
  }
}

function countRejected(store: CounterStore, config: Config, req: FastifyRequest): Promise<number | null> {
  const max = config.anonRateLimit;
  if (max <= 0 || !(req.routeOptions.url ?? '').startsWith('/api/v4')) return Promise.resolve(null);
  return new Promise((resolve) =>
    store.incr(`ip:${req.ip}`, (err, r) => resolve(!err && r && r.current > max ? Math.max(1, Math.ceil(r.ttl / 1000)) : null), WINDOW_MS, max),
  );
}

/** The budget per minute for this caller, or null when the caller is not limited. */
export function budgetFor(req: FastifyRequest, config: Config): number | null {
  if (!(req.routeOptions.url ?? '').startsWith('/api/v4')) return null;
  const p = req.principal;
  if (!p) return null;
  if (p.kind === 'anonymous') return config.anonRateLimit > 0 ? config.anonRateLimit : null;
  if (p.rateLimitPerMinute) return p.rateLimitPerMinute;
  const byClass = p.access === 'reseller' ? config.resellerRateLimit : p.access === 'public' ? config.publicRateLimit : config.userRateLimit;
  return byClass > 0 ? byClass : null;
}

/** `store`: the app's one counter store (ops/limiter.ts), shared with the shop's and gift cards' budgets. */
export async function rateLimiting(app: FastifyInstance, config: Config, store: CounterStore) {
  // The same counter as the plugin's key for anonymous callers (keyGenerator below).
  app.decorate('limitRejectedCaller', (req: FastifyRequest) => countRejected(store, config, req));
  // The plugin instantiates the store class itself; this hands it our instance.
  const Store = function StoreCtor() {
    return store;
  } as unknown as new () => CounterStore;

  await app.register(rateLimit, {
    global: true,
    hook: 'preParsing',
    timeWindow: WINDOW_MS,
    store: Store,
    // Our stores never fail (Redis falls back to memory); this is a last guard against a bug
    // in one turning into refused requests.
    skipOnError: true,
    enableDraftSpec: true,
    keyGenerator: (req) => (req.principal?.kind === 'account' ? `a:${req.principal.accountId}` : `ip:${req.ip}`),
    allowList: (req) => budgetFor(req, config) === null,
    max: (req) => budgetFor(req, config) ?? 0,
    errorResponseBuilder: (_req, ctx) =>
      new DomainError('RATE_LIMITED', 'rate limit exceeded', { retryAfter: Math.max(1, Math.ceil(ctx.ttl / 1000)) }),
  });
}
