// Resolves `Authorization: Bearer …` on every request (spec 5) and enforces the route's declared
// access. A bad token is a 401 on every endpoint, public ones included (docs/api-contract.md §3), so a client
// finds out at once that its token is wrong instead of silently seeing the public catalogue.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveToken } from '../../../domain/accounts/resolveToken.ts';
import type { Clock } from '../../../domain/clock.ts';
import type { Config } from '../../../config.ts';
import type { Ctx } from '../../../domain/context.ts';
import type { Db } from '../../../db/client.ts';
import { DomainError } from '../../../domain/errors.ts';
import { anonymous, hasRight, type Principal } from '../../../domain/principal.ts';
import { sendError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    ctx: Ctx;
  }
}

export interface AuthDeps {
  db: Db;
  clock: Clock;
  config: Config;
  instanceId: string;
  testing?: Ctx['testing'];
  /** Per-process token resolution cache (src/cache/tokens.ts); absent = a lookup per request. */
  tokens?: { resolve: typeof resolveToken };
  /** Per-process master-data memo (src/cache/masterData.ts) handed to domain verbs. */
  masterData?: Ctx['masterData'];
}

function bearer(req: FastifyRequest): string | null | undefined {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

export function authentication(app: FastifyInstance, deps: AuthDeps) {
  app.decorateRequest('principal', null, []);
  app.decorateRequest('ctx', null, []);

  // A callback hook: an anonymous caller (most catalogue reads) is admitted without a promise or
  // a turn of the microtask queue; only a token waits for its resolution. Answering (an error)
  // ends the chain without done().
  app.addHook('onRequest', (req, reply, done) => {
    const token = bearer(req);
    if (token === null) {
      refuseCaller(req, reply, new DomainError('UNAUTHORIZED', 'authentication error; use "Authorization: Bearer <token>"'));
      return;
    }
    if (token === undefined) {
      if (admit(req, reply, anonymous)) done();
      return;
    }
    (deps.tokens ?? { resolve: resolveToken })
      .resolve(deps.db, deps.instanceId, token, deps.clock.now())
      .then(
        (principal) => {
          if (admit(req, reply, principal)) done();
        },
        (err: unknown) => (err instanceof DomainError && err.code === 'UNAUTHORIZED' ? refuseCaller(req, reply, err) : done(err as Error)),
      );
  });

  /** Sets the caller and its context, and enforces the route's access: false once answered. */
  function admit(req: FastifyRequest, reply: FastifyReply, principal: Principal): boolean {
    req.principal = principal;
    req.ctx = {
      db: deps.db,
      principal,
      clock: deps.clock,
      config: deps.config,
      ...(deps.masterData ? { masterData: deps.masterData } : {}),
      ...(deps.testing ? { testing: deps.testing } : {}),
    };

    const access = req.routeOptions.config.access;
    // Scanner tokens reach only the routes that name them, not the undeclared ones (health,
    // docs, metrics) either: a gate device has no business elsewhere (docs/adr/0017-entry-control.md).
    if (principal.access === 'entry' && !access?.classes.includes('entry') && req.routeOptions.url !== undefined) {
      return refuse(req, reply, new DomainError('FORBIDDEN', 'an entry token may only scan'));
    }
    if (!access) return true;
    if (principal.kind === 'anonymous') {
      if (!access.anonymous) {
        refuseCaller(req, reply, new DomainError('UNAUTHORIZED', 'authentication error; no customer or no user present'));
        return false;
      }
      return true;
    }
    if (!access.classes.includes(principal.access)) {
      return refuse(req, reply, new DomainError('FORBIDDEN', `a ${principal.access} token may not use this endpoint`));
    }
    if (access.right && principal.access === 'user' && !hasRight(principal, access.right[0], access.right[1])) {
      return refuse(req, reply, new DomainError('FORBIDDEN', `this token lacks the right ${access.right[0]}:${access.right[1]}`));
    }
    return true;
  }
}

/**
 * A 401 for a wrong or malformed token, counted against the anonymous budget of the caller's
 * address (http/plugins/rate-limit.ts): guessing tokens is limited like anonymous requests,
 * answered 401 until the budget is spent and 429 after.
 */
function refuseCaller(req: FastifyRequest, reply: FastifyReply, err: DomainError): void {
  const limit = req.server.limitRejectedCaller;
  if (!limit) {
    sendError(req, reply, err);
    return;
  }
  limit(req).then(
    (retryAfter) => sendError(req, reply, retryAfter === null ? err : new DomainError('RATE_LIMITED', 'rate limit exceeded', { retryAfter })),
    () => sendError(req, reply, err),
  );
}

function refuse(req: FastifyRequest, reply: FastifyReply, err: DomainError): false {
  sendError(req, reply, err);
  return false;
}
