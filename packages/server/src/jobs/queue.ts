// The durable job queue: graphile-worker's tables in the `graphile_worker` schema of our own
// database. Jobs are added with its `add_job` SQL function through the caller's transaction, so
// a job exists exactly when the business change that needs it commits (a rolled-back finalize
// enqueues nothing, a committed one can never lose its job to a crash). Handlers must be safe to
// repeat: a job may run again after a crash between its work and its completion.
import { sql } from 'drizzle-orm';
import { runMigrations as installWorkerSchema } from 'graphile-worker';
import type pg from 'pg';
import type { DbOrTx } from '../db/client.ts';
import { quietLogger } from './logger.ts';

export const TASKS = {
  renderDocument: 'documents.render',
  scanDocument: 'documents.scan',
  purgeDocuments: 'documents.purge',
  sweepAllocations: 'capacity.sweep',
  deliverWebhook: 'webhooks.deliver',
  sendMail: 'mail.send',
  purgeIdempotencyKeys: 'idempotency.purge',
  purgeStaffSessions: 'staff.purge',
} as const;
export type TaskName = (typeof TASKS)[keyof typeof TASKS];

export interface EnqueueOptions {
  /**
   * At most one waiting job per key: adding again while it waits replaces it (one run does the
   * work of both). A job already running is not replaced; the new one runs after it.
   */
  jobKey?: string;
  /** Attempts before the job is given up (retries back off exponentially: exp(min(attempts,10)) s). */
  maxAttempts?: number;
}

export async function enqueue(db: DbOrTx, task: TaskName, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<void> {
  await db.execute(sql`select graphile_worker.add_job(
    identifier => ${task}::text,
    payload => ${JSON.stringify(payload)}::json,
    max_attempts => ${opts.maxAttempts ?? 12}::int,
    job_key => ${opts.jobKey ?? null}::text
  )`);
}

/** Creates or upgrades the queue's schema; part of `atrium migrate` (db/migrate.ts). */
export async function installQueue(pool: pg.Pool): Promise<void> {
  await installWorkerSchema({ pgPool: pool, logger: quietLogger() });
}
