// Turns flagged documents (documents.render_pending) into render jobs. Orders and cancellations
// only set the flag in their own transaction; this loop, running beside the job worker, adds the
// jobs in batches through documents_dispatch (src/db/sql/documents_dispatch.sql): one transaction
// and one NOTIFY per batch instead of one per order, which kept every booking's commit waiting for
// the others' (ADR 0009). The flag is durable, so a crash anywhere loses nothing: a flagged
// document is dispatched by whichever dispatcher runs next, and SKIP LOCKED keeps several from
// taking the same one. Cost when idle: one probe of a partial index per interval.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pollLoop, type Loop } from './loop.ts';
import { TASKS } from '../db/repositories/jobQueue.ts';

/** A batch this size is followed at once by the next one; a smaller batch means "caught up". */
const BATCH = 200;

/** Dispatches now instead of at the next tick with poke() (tests, and a process that just wrote flags). */
export type Dispatcher = Loop;

export function startDispatcher(db: Db, opts: { intervalMs: number; maxAttempts?: number; onError?: (err: unknown) => void }): Dispatcher {
  return pollLoop(async (stopped) => {
    for (;;) {
      const r = await db.execute<{ n: number }>(
        sql`select documents_dispatch(${BATCH}, ${TASKS.renderDocument}, ${opts.maxAttempts ?? 12}) as n`,
      );
      if (stopped() || Number(r.rows[0]?.n ?? 0) < BATCH) return;
    }
  }, opts);
}
