// Builds the Fastify application without listening (tests inject requests; main.ts listens).
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { stdTimeFunctions } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import type { Caches } from './cache/index.ts';
import type { AnswerScope } from './cache/responses.ts';
import type { TokenSource } from './cache/tokens.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { databaseTimeouts } from './db/timeouts.ts';
import { databaseClock } from './domain/capacity/databaseClock.ts';
import type { Clock } from './domain/clock.ts';
import type { Ctx } from './domain/context.ts';
import { resolveToken } from './domain/accounts/resolveToken.ts';
import { hashToken } from './domain/accounts/tokens.ts';
import { callerKey } from './domain/catalog/fragments.ts';
import type { AccountPrincipal } from './domain/principal.ts';
import { addDays, localDateOf, zonedInstant } from './domain/time.ts';
import { authentication } from './http/api/plugins/auth.ts';
import { caching } from './http/api/plugins/caching.ts';
import { closingBehaviour } from './http/api/plugins/closing.ts';
import { limitConnections } from './http/api/plugins/connection-limits.ts';
import { clientErrors } from './http/api/plugins/client-errors.ts';
import { cors } from './http/api/plugins/cors.ts';
import { readDeadline } from './http/api/plugins/deadline.ts';
import { docs } from './http/api/plugins/docs.ts';
import { idempotency } from './http/api/plugins/idempotency.ts';
import { errorHandling, frameworkErrors } from './http/api/plugins/errors.ts';
import { metrics } from './http/api/plugins/metrics.ts';
import { rateLimiting } from './http/api/plugins/rate-limit.ts';
import { counterStore, Limiter } from './ops/limiter.ts';
import { requestLogging } from './http/api/plugins/request-log.ts';
import { securityHeaders } from './http/api/plugins/security.ts';
import { fastifyTrustProxy } from './http/api/plugins/trust-proxy.ts';
import { lazySchemas as makeLazySchemas } from './http/api/lazy-schemas.ts';
import { parseQuery } from './http/api/querystring.ts';
import { apiRoutes, mediaFileRoutes } from './http/api/routes/index.ts';
import { gomusEntryRoutes } from './http/api/routes/entry/gomus.ts';
import { consolePlugin } from './http/console/routes/plugin.ts';
import { scanPage } from './http/scan/page.ts';
import { octoRoutes } from './http/octo/plugin.ts';
import { shopPlugin } from './http/shop/plugin.ts';
import type { ShopLimits } from './http/shop/limits.ts';
import { shopEmbed } from './http/shop/embed/plugin.ts';
import { shopManagePlugin } from './http/shop/manage/plugin.ts';
import { jsonBodies } from './http/api/json-text.ts';
import { healthRoutes } from './http/api/routes/health.ts';
import { startWorker, workerPoolSize } from './jobs/worker.ts';
import { webhookKey } from './notify/webhooks/key.ts';
import { capLine, safeError } from './ops/log-safety.ts';
import { named } from './http/plugin-name.ts';

export interface AppOptions {
  database: Database;
  config: Config;
  clock?: Clock;
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  testing?: Ctx['testing'];
  /** Run the background job worker (src/jobs) in this process; it stops when the app closes. */
  worker?: boolean;
  /** In-process catalogue/token caches kept correct by LISTEN (src/cache); none = uncached. */
  caches?: Caches;
  /**
   * Compile route schemas on first use, and the rest in the background once listening
   * (http/api/lazy-schemas.ts), instead of all before the app is ready: `atrium serve` starts
   * faster. Off by default, so an app built for tests compiles every schema as before.
   */
  lazySchemas?: boolean;
  /**
   * With lazySchemas, whether listening starts the background compilation of the remaining
   * schemas (default yes). A test app that listens for a handful of pages turns it off: there it
   * would compile hundreds of schemas no request of the test uses.
   */
  warmSchemas?: boolean;
  /** The shop's per-visitor and per-address limits (src/http/shop/limits.ts); defaults when absent. */
  shopLimits?: ShopLimits;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// The domain's rules the caches need (src/cache imports no domain code): how a token resolves, and
// what a kept catalogue answer depends on.
const TOKEN_SOURCE: TokenSource<AccountPrincipal> = { resolve: resolveToken, hash: hashToken };
const ANSWER_SCOPE: AnswerScope = {
  caller: (req) => callerKey(req.principal),
  day: (now, zone) => {
    const date = localDateOf(now, zone);
    return { date, from: zonedInstant(date, 0, zone).getTime(), to: zonedInstant(addDays(date, 1), 0, zone).getTime() };
  },
};

export async function loadInstanceId(database: Database): Promise<string> {
  const res = await database.db.execute<{ instance_id: string }>(sql`select instance_id from instance where id = 1`);
  const id = res.rows[0]?.instance_id;
  if (!id) throw new Error('the database has no instance row; run `atrium migrate` first');
  return id;
}

function cachedTokens(caches: Caches): { resolve: typeof resolveToken } {
  return { resolve: (db, instanceId, token, now) => caches.tokens.resolve(db, instanceId, token, now, TOKEN_SOURCE) };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  // Webhook secrets are always sealed: without a configured key, the data directory's is used.
  config.notify.webhooksSecretKey ??= webhookKey(config);
  // Every node follows the database's clock (hold expiry is decided on several nodes).
  const clock = opts.clock ?? (await databaseClock(database.db));
  const instanceId = await loadInstanceId(database);
  const lazy = opts.lazySchemas ? makeLazySchemas() : undefined;

  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            // UTC ISO timestamps (spec 7.5) instead of epoch milliseconds.
            timestamp: stdTimeFunctions.isoTime,
            // Tokens never reach a log line: the header is removed, only its last 4 characters are
            // logged (by the request logger), and query strings are logged with token values masked.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
            // Errors by an allow-list of fields (a failed statement by its SQL, never its bound
            // parameters) and no line over MAX_LOG_LINE (ops/log-safety.ts).
            serializers: { err: safeError },
            hooks: { streamWrite: capLine },
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQuery },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: true, useDefaults: true } },
    // Requests that arrive while closing are answered by http/api/plugins/closing.ts, in the spec's shape.
    return503OnClosing: false,
    ...(lazy ? { schemaController: { compilersFactory: lazy.compilersFactory as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']> } } : {}),
    frameworkErrors,
    // Parser errors and timeouts before any route: the error shape and security headers too.
    clientErrorHandler: clientErrors(config),
    // The request logger (http/api/plugins/request-log.ts) writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    // Slow or stalled clients cannot hold sockets (docs/operations.md, "Timeouts"): a socket idle
    // for 30 s is closed, headers must arrive within 20 s and the whole request within 60 s
    // (checked every 5 s instead of Node's 30 s). Idle keep-alive lasts 72 s, longer than the
    // usual 60 s of load balancers, so the balancer closes first and never reuses a dying socket.
    connectionTimeout: 30_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 72_000,
    http: { headersTimeout: 20_000, connectionsCheckingInterval: 5_000 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (lazy && opts.warmSchemas !== false) {
    let closed = false;
    app.addHook('onClose', async () => void (closed = true));
    app.addHook('onListen', async () => {
      const started = performance.now();
      void lazy
        .warm({ stopped: () => closed, onError: (err, route) => app.log.error({ err, method: route.method, url: route.url }, 'route schema does not compile') })
        .then(() => app.log.debug({ ms: Math.round(performance.now() - started) }, 'route schemas compiled'));
    });
  }
  limitConnections(app.server, config, app.log);
  securityHeaders(app, config);
  closingBehaviour(app);
  readDeadline(app, config);
  // Before errorHandling: see cors.ts (its catch-all OPTIONS route must stay out of the 405 router).
  await cors(app, config);
  errorHandling(app);
  // JSON bodies with lone UTF-16 surrogates are a 422 (http/api/json-text.ts).
  jsonBodies(app);
  await docs(app);
  authentication(app, { db: database.db, clock, config, instanceId, ...(opts.testing ? { testing: opts.testing } : {}), ...(opts.caches ? { tokens: cachedTokens(opts.caches), masterData: opts.caches.masterData } : {}) });
  // Before caching: its onSend must see the full 200 answer before caching.ts turns it into a 304.
  opts.caches?.register(app, ANSWER_SCOPE);
  caching(app, config.catalogMaxAge);
  idempotency(app);
  requestLogging(app);
  if (config.metrics) metrics(app, { pool: database.pool, clock });
  // After auth (the limit depends on the principal), before any route is registered.
  // One counter store (Redis when configured) for the API's limits and every other budget.
  const counters = await counterStore(config, app.log);
  app.addHook('onClose', () => counters.close());
  const limiter = new Limiter(counters.store);
  app.decorate('limiter', limiter);
  await rateLimiting(app, config, counters.store);
  // The job runner starts below; until then (and without one) readiness is the database's.
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  await app.register(named(healthRoutes(database.pool, () => worker?.health()), 'healthRoutes'));
  // Route options that depend on settings (the upload route's body limit) read it at registration.
  app.decorate('atriumConfig', config);
  await app.register(named(apiRoutes), { prefix: '/api/v4' });
  // Picture files (src/domain/media), linked from the catalogue's go~mus `picture` objects.
  await app.register(named(mediaFileRoutes));
  // The go~mus v3 entry API and the /scan page (docs/adr/0017-entry-control.md).
  await app.register(named(gomusEntryRoutes), { prefix: '/api/v3' });
  await app.register(named(scanPage));
  // The OCTO endpoint for distribution platforms (docs/octo.md), in its own error shape.
  await app.register(named(octoRoutes), { prefix: '/octo' });
  // The staff console, in its own encapsulated context (docs/adr/0021-staff-console.md).
  // The visitor's manage-booking pages and the shop's embedding scripts (docs/shop.md).
  await app.register(named(shopManagePlugin({ db: database.db, clock, config, limiter }), 'shopManagePlugin'), { prefix: '/shop/manage' });
  await app.register(named(shopEmbed), { prefix: '/shop' });
  if (config.console) await app.register(named(consolePlugin({ db: database.db, clock, config, ...(opts.caches ? { masterData: opts.caches.masterData } : {}) }), 'consolePlugin'), { prefix: '/console' });
  // The visitor shop, another transport over the same verbs (docs/api-contract.md §20).
  await app.register(named(shopPlugin({ db: database.db, clock, config, limiter, ...(opts.caches ? { masterData: opts.caches.masterData } : {}), ...(opts.testing ? { testing: opts.testing } : {}), ...(opts.shopLimits ? { limits: opts.shopLimits } : {}) }), 'shopPlugin'), { prefix: '/shop' });
  if (opts.worker) {
    // The jobs run on a pool of their own with the background class's timeouts (db/timeouts.ts).
    const url = (database.pool as { options?: { connectionString?: string } }).options?.connectionString;
    const jobsDb = url ? openDatabase(url, { max: workerPoolSize(), applicationName: 'atrium-jobs', ...databaseTimeouts(config, 'jobs') }) : database;
    const started = await startWorker({ database: jobsDb, config, clock, log: app.log });
    worker = started;
    // onClose runs after the server stopped accepting and before the caller closes the pool.
    app.addHook('onClose', async () => {
      await started.stop();
      if (jobsDb !== database) await jobsDb.close();
    });
  }
  return app;
}
