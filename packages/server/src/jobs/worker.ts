// The background worker: runs the document jobs from the durable queue, and the dispatcher that
// adds the render jobs of newly flagged documents (dispatch.ts). It lives inside
// `atrium serve` (ATRIUM_WORKER=false turns it off on extra web-only nodes; any number of
// workers may share one database, graphile-worker locks each job for one of them) and in tests.
//
// Retries: a failing job is retried with exponential backoff (graphile-worker: exp(min(n,10))
// seconds) up to its max_attempts; its stored error is a clean text (jobErrors.ts). A graceful
// stop lets running jobs finish and releases the rest, so a restarted process continues where
// this one stopped; a crashed or stopped worker's locked jobs are released within a minute by any
// live worker (liveness.ts), and a runner that stops on an error is restarted (supervisor.ts).
// Handlers are idempotent, so a job that runs twice (crash after the work, before completion)
// changes nothing the second time.
import { run, parseCronItems, type RunnerOptions, type Runner, type TaskList } from 'graphile-worker';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import { systemCtx, type Ctx } from '../domain/context.ts';
import { generateDocument, type Renderers } from '../domain/documents/generateDocument.ts';
import { sweepExpiredAllocations } from '../domain/capacity/sweepExpired.ts';
import { purgeExpiredDocuments } from '../domain/documents/purgeDocuments.ts';
import { purgeIdempotencyKeys } from '../domain/idempotency/purgeIdempotencyKeys.ts';
import { scanDocument } from '../domain/documents/scanDocument.ts';
import { scannerFor, type Scanner } from '../scan/index.ts';
import { CRON_ITEMS } from './cron.ts';
import { startDispatcher } from './dispatch.ts';
import { startEventDispatcher } from './events.ts';
import { recordExpiredOrders } from '../domain/events/recordExpiredOrders.ts';
import { NOTIFY_CONCURRENCY, notifyTaskList } from './notifyTasks.ts';
import { safeError } from '../ops/log-safety.ts';
import { cleanErrors } from './jobErrors.ts';
import type { LivenessTimes } from './liveness.ts';
import { workerLogger } from './logger.ts';
import { TASKS } from '../db/repositories/jobQueue.ts';
import { sealPlainSecrets, webhookKey } from '../notify/webhooks/key.ts';
import { deleteErasedCustomersMailFiles, secureMailDir } from '../notify/mail/files.ts';
import { pollLoop } from './loop.ts';
import { superviseRunner, type Backoff, type RunnerHealth } from './supervisor.ts';
import { purgeSessions } from '../domain/staff/sessions.ts';
import { purgeLoginAttempts } from '../domain/staff/authenticate.ts';
import { reconcilePayments } from '../domain/payments/reconcile.ts';
import { expireGiftCards } from '../domain/vouchers/expire.ts';
import { returnCodesOfExpiredOrders } from '../domain/vouchers/expiredCodes.ts';
import { paymentProviders } from '../providers/payments/index.ts';

export interface WorkerOptions {
  database: Database;
  config: Config;
  clock?: Clock;
  /** pino-like logger; omitted = silent. */
  log?: Parameters<typeof workerLogger>[0];
  /** Jobs run at once (default 2: rendering is CPU work on the web process). */
  concurrency?: number;
  /** How often to look for retries and scheduled jobs; new jobs arrive at once via LISTEN. */
  pollIntervalMs?: number;
  /** Overrides (tests): another scanner or renderers. */
  scanner?: Scanner;
  renderers?: Renderers;
  /** The periodic jobs of cron.ts (default on). */
  cron?: boolean;
  /** How often flagged documents are turned into render jobs (default 250 ms; dispatch.ts). */
  dispatchIntervalMs?: number;
  /** Restart backoff and heartbeat times (tests shorten them; supervisor.ts, liveness.ts). */
  backoff?: Backoff;
  liveness?: LivenessTimes;
  /** How often erased customers' mail files are looked for (default 5 s). */
  mailFilesIntervalMs?: number;
  /** graphile-worker's run(), replaced by tests that make a runner fail. */
  run?: (options: RunnerOptions) => Promise<Runner>;
}

export interface Worker {
  /** Whether a job runner runs now, and if not why (for /readyz). */
  health(): RunnerHealth;
  /** Stops taking jobs, waits for running ones, releases the rest. */
  stop(): Promise<void>;
}

// The renderers (pdfkit, fontkit, bwip-js: a few hundred ms to load) are imported on the first
// job, not when the server starts.
const defaultRenderers: Renderers = {
  ticket: async (input) => (await import('../documents/render/tickets.ts')).renderTicketsPdf(input),
  invoice: async (input) => (await import('../documents/render/invoice.ts')).renderInvoicePdf(input),
  eInvoice: async (input) => (await import('../documents/einvoice/build.ts')).renderEInvoiceXml(input),
  confirmation: async (input) => (await import('../documents/render/confirmation.ts')).renderConfirmationPdf(input),
};

function documentId(payload: unknown): number {
  const id = (payload as { documentId?: unknown } | null)?.documentId;
  if (!Number.isInteger(id)) throw new Error('job payload has no documentId');
  return id as number;
}

export function taskList(ctx: Ctx, deps: { scanner: Scanner; renderers: Renderers }): TaskList {
  return {
    [TASKS.renderDocument]: async (payload) => {
      await generateDocument(ctx, { documentId: documentId(payload) }, deps.renderers);
    },
    [TASKS.scanDocument]: async (payload) => {
      await scanDocument(ctx, { documentId: documentId(payload) }, deps.scanner);
    },
    [TASKS.purgeDocuments]: async () => {
      await purgeExpiredDocuments(ctx);
    },
    [TASKS.sweepAllocations]: async () => {
      // Before the sweep releases their allocations: that is how expired orders are found.
      await recordExpiredOrders(ctx);
      await returnCodesOfExpiredOrders(ctx);
      await sweepExpiredAllocations(ctx);
    },
    [TASKS.purgeIdempotencyKeys]: async () => {
      await purgeIdempotencyKeys(ctx);
    },
    [TASKS.purgeStaffSessions]: async () => {
      await purgeSessions(ctx);
      await purgeLoginAttempts(ctx);
    },
    [TASKS.reconcilePayments]: async () => {
      await reconcilePayments(ctx, paymentProviders(ctx.config));
    },
    [TASKS.expireGiftCards]: async () => {
      await expireGiftCards(ctx);
    },
  };
}

/** Job slots: PDF renders and scans (default 2) plus the network-bound notify slots. */
export function workerConcurrency(base = 2): number {
  return base + NOTIFY_CONCURRENCY;
}

/**
 * Connections the worker's own pool needs: one per job slot, graphile-worker's LISTEN client, and
 * room for its job fetches and completions and the two dispatch loops. A smaller pool made jobs
 * wait for a connection (graphile-worker warns "maxPoolSize smaller than concurrency") and, under
 * load, stall on "timeout exceeded when trying to connect".
 */
export function workerPoolSize(base = 2): number {
  return workerConcurrency(base) + 4;
}

export async function startWorker(opts: WorkerOptions): Promise<Worker> {
  const ctx = systemCtx({ db: opts.database.db, clock: opts.clock ?? systemClock, config: opts.config });
  const tasks = cleanErrors({
    ...taskList(ctx, {
      scanner: opts.scanner ?? scannerFor(opts.config),
      renderers: opts.renderers ?? defaultRenderers,
    }),
    ...notifyTaskList(ctx),
  });
  const runner = await superviseRunner({
    db: opts.database.db,
    log: opts.log,
    backoff: opts.backoff,
    liveness: opts.liveness,
    start: (events) =>
      (opts.run ?? run)({
        pgPool: opts.database.pool,
        events,
        // Webhook deliveries and mails wait on the network, not the CPU: extra slots for them, so a
        // hanging receiver does not take the place of a PDF render (src/jobs/notifyTasks.ts).
        concurrency: workerConcurrency(opts.concurrency),
        pollInterval: opts.pollIntervalMs ?? 2000,
        noHandleSignals: true,
        // With batching (even a 0 ms window) the pool awaits the last completions and failures when
        // it shuts down; unbatched they are fire-and-forget, and a stop right after a job finished
        // could leave it locked (re-run hours later) once the pool is closed.
        preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
        logger: workerLogger(opts.log),
        taskList: tasks,
        // The periodic jobs: src/jobs/cron.ts.
        parsedCronItems: opts.cron === false ? [] : parseCronItems(CRON_ITEMS),
      }),
  });
  // Webhook secrets stored in the clear by older versions are sealed once (notify/webhooks/secrets.ts).
  opts.config.notify.webhooksSecretKey ??= webhookKey(opts.config);
  await sealPlainSecrets(opts.database.db, webhookKey(opts.config)).catch((err) => opts.log?.warn({ err: safeError(err) }, 'sealing stored webhook secrets failed'));
  if (!opts.config.notify.smtpUrl) await secureMailDir(opts.config.dataDir).catch((err) => opts.log?.warn({ err: safeError(err) }, 'mail directory not secured'));
  // A GDPR erasure's .eml files (notify/mail/files.ts): the domain records the erasure, this deletes.
  const mailFiles = pollLoop(() => deleteErasedCustomersMailFiles(opts.database.db, opts.config.dataDir).then(() => undefined), {
    intervalMs: opts.mailFilesIntervalMs ?? 5000,
    onError: (err) => opts.log?.warn({ err: safeError(err) }, 'deleting erased customers\' mail files failed; retrying'),
  });
  const dispatcher = startDispatcher(opts.database.db, {
    intervalMs: opts.dispatchIntervalMs ?? 250,
    onError: (err) => opts.log?.warn({ err: safeError(err) }, 'document dispatch failed; retrying'),
  });
  // The outbox fan-out into deliveries and mails: docs/adr/0018-outbox-webhooks-mail.md.
  const events = startEventDispatcher(ctx, {
    intervalMs: opts.dispatchIntervalMs ?? 250,
    onError: (err) => opts.log?.warn({ err: safeError(err) }, 'event dispatch failed; retrying'),
  });
  let stopped: Promise<void> | undefined;
  return {
    health: () => runner.health(),
    stop() {
      stopped ??= Promise.all([dispatcher.stop(), events.stop(), mailFiles.stop()]).then(() => runner.stop());
      return stopped;
    },
  };
}
