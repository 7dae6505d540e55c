// Keeps graphile-worker's runner running. The runner stops for good on some errors (its pool
// exits when it cannot record a job's completion or failure: the database killed under load, a
// job error PostgreSQL cannot store); nothing else would then run a PDF, a mail, a webhook or the
// hold sweep again until the process restarts. The supervisor watches the runner's promise and
// starts a new runner after any end it did not ask for, with a bounded, jittered exponential
// backoff (a database that is down is retried every few seconds, not hammered, and several nodes
// do not retry in step). While no runner runs, health() says why: /readyz answers 503.
//
// It also keeps the pool's heartbeat and sweeps the jobs of dead pools (liveness.ts): once at
// start and then every heartbeat.
import { EventEmitter } from 'node:events';
import type { Runner, WorkerEvents } from 'graphile-worker';
import type { Db } from '../db/client.ts';
import { safeError } from '../ops/log-safety.ts';
import { DEFAULT_LIVENESS, forgetWorker, heartbeat, releaseDeadWorkers, type LivenessTimes } from './liveness.ts';
import { pollLoop } from './loop.ts';

export interface RunnerHealth {
  up: boolean;
  /** Why no runner runs (absent when up). */
  reason?: string;
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 500, maxMs: 30_000 };

/** The wait before restart attempt `n` (0-based): base·2^n capped at max, times 0.5–1 (jitter). */
export function backoffDelay(n: number, b: Backoff, random = Math.random): number {
  const exp = Math.min(b.maxMs, b.baseMs * 2 ** Math.min(n, 30));
  return Math.round(exp * (0.5 + random() / 2));
}

interface Log {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface SuperviseOptions {
  /** Starts one runner; `events` must be passed to graphile-worker's run(). */
  start(events: WorkerEvents): Promise<Runner>;
  db: Db;
  log?: Log | undefined;
  backoff?: Backoff | undefined;
  liveness?: LivenessTimes | undefined;
}

export interface SupervisedRunner {
  health(): RunnerHealth;
  stop(): Promise<void>;
}

function reasonOf(err: unknown): string {
  return err === undefined ? 'runner stopped' : safeError(err).message;
}

/** Starts the first runner (its error is thrown, as before) and keeps one running until stop(). */
export async function superviseRunner(o: SuperviseOptions): Promise<SupervisedRunner> {
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const times = o.liveness ?? DEFAULT_LIVENESS;
  let runner: Runner | undefined;
  let poolId: string | undefined;
  let health: RunnerHealth = { up: false, reason: 'starting' };
  let stopping = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let starting: Promise<void> | undefined;

  const launch = async () => {
    const events = new EventEmitter() as WorkerEvents;
    let id: string | undefined;
    events.on('pool:create', ({ workerPool }) => void (id ??= workerPool.id));
    // The runner's promise alone is not enough: after a pool shut itself down (its workers lost
    // the database) the runner's own stop can wait forever on a release, so its promise never
    // settles. The pool's end is the signal.
    let started: Runner | undefined;
    const ended = (why: string) => () => started && failed(started, new Error(why));
    events.on('pool:gracefulShutdown:complete', ended('worker pool shut down'));
    events.on('pool:gracefulShutdown:error', ended('worker pool shut down with an error'));
    events.on('pool:release', ended('worker pool released'));
    const r = await o.start(events);
    started = r;
    if (stopping) {
      await r.stop();
      return;
    }
    runner = r;
    poolId = id;
    attempt = 0;
    health = { up: true };
    liveness.poke();
    r.promise.then(
      () => failed(r, undefined),
      (err) => failed(r, err),
    );
  };

  const failed = (r: Runner, err: unknown) => {
    if (stopping || runner !== r) return;
    runner = undefined;
    health = { up: false, reason: `job runner down: ${reasonOf(err)}` };
    o.log?.error({ err: safeError(err ?? new Error('runner stopped')) }, 'job runner stopped; restarting');
    const dead = poolId;
    poolId = undefined;
    // Its heartbeat goes, so a sweep (here once a runner is back, or on another node) releases
    // its locked jobs; if the database is down this fails and the heartbeat just grows old.
    if (dead) void forgetWorker(o.db, dead).catch(() => undefined);
    void r.stop().catch(() => undefined);
    schedule();
  };

  const schedule = () => {
    if (stopping) return;
    const delay = backoffDelay(attempt++, backoff);
    timer = setTimeout(() => {
      starting = launch().catch((err) => {
        health = { up: false, reason: `job runner down: ${reasonOf(err)}` };
        o.log?.warn({ err: safeError(err), attempt }, 'job runner did not start; retrying');
        schedule();
      });
    }, delay);
  };

  const liveness = pollLoop(
    async () => {
      if (poolId) await heartbeat(o.db, poolId);
      if (!runner) return;
      const released = await releaseDeadWorkers(o.db, times.deadAfterMs);
      if (released.length > 0) o.log?.warn({ workers: released }, 'released the jobs of dead job workers');
    },
    { intervalMs: times.heartbeatMs, onError: (err) => o.log?.warn({ err: safeError(err) }, 'job worker heartbeat failed; retrying') },
  );

  try {
    await launch();
  } catch (err) {
    await liveness.stop();
    throw err;
  }

  return {
    health: () => health,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await liveness.stop();
      await starting?.catch(() => undefined);
      const r = runner;
      runner = undefined;
      health = { up: false, reason: 'stopped' };
      await r?.stop();
      if (poolId) await forgetWorker(o.db, poolId).catch(() => undefined);
    },
  };
}
