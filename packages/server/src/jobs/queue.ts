// The durable job queue: graphile-worker's tables in the `graphile_worker` schema of our own
// database. Jobs are added through the caller's transaction (db/repositories/jobQueue.ts), so
// a job exists exactly when the business change that needs it commits (a rolled-back finalize
// enqueues nothing, a committed one can never lose its job to a crash). Handlers must be safe to
// repeat: a job may run again after a crash between its work and its completion.
import { runMigrations as installWorkerSchema } from 'graphile-worker';
import type pg from 'pg';
import { quietLogger } from './logger.ts';

/** Creates or upgrades the queue's schema; part of `atrium migrate` (db/migrate.ts). */
export async function installQueue(pool: pg.Pool): Promise<void> {
  await installWorkerSchema({ pgPool: pool, logger: quietLogger() });
}
