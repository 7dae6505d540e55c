// Adding jobs to the durable queue (graphile-worker's tables in our own database, jobs/queue.ts):
// a statement in the caller's transaction, so a job exists exactly when the change that needs it
// commits. Here, with the other statements, so the domain queues work without importing the
// worker (jobs/) or the outbox fan-out (notify/) that run it.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';

/** The task names: what whoever queues a job and the worker that runs it (jobs/worker.ts) agree on. */
export const TASKS = {
  renderDocument: 'documents.render',
  scanDocument: 'documents.scan',
  purgeDocuments: 'documents.purge',
  sweepAllocations: 'capacity.sweep',
  deliverWebhook: 'webhooks.deliver',
  sendMail: 'mail.send',
  purgeIdempotencyKeys: 'idempotency.purge',
  purgeStaffSessions: 'staff.purge',
  reconcilePayments: 'payments.reconcile',
  expireGiftCards: 'gift_cards.expire',
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

export interface JobSpec {
  task: string;
  payload: Record<string, unknown>;
  key: string | null;
  maxAttempts: number;
  runAt?: string | null;
}

/** Adds jobs with one add_jobs call (one NOTIFY), in the caller's transaction. */
export async function addJobs(db: DbOrTx, jobs: JobSpec[]): Promise<void> {
  if (jobs.length === 0) return;
  await db.execute(sql`select graphile_worker.add_jobs(array(
    select row(j.task, j.payload::json, null, j.run_at, j.max_attempts, j.key, null, null)::graphile_worker.job_spec
      from jsonb_to_recordset(${JSON.stringify(jobs.map((j) => ({ ...j, max_attempts: j.maxAttempts, run_at: j.runAt ?? null })))}::jsonb)
        as j(task text, payload jsonb, key text, max_attempts int, run_at timestamptz)))`);
}
