// Which job workers of the cluster are alive, and the release of a dead one's jobs.
//
// graphile-worker locks a job with its worker pool's id (`locked_by`) and, on its own, frees the
// lock of a crashed pool only after four hours: until then a killed process's PDF, mail or webhook
// waits. Each running pool records its id in job_worker_heartbeats and refreshes it every
// HEARTBEAT_MS (supervisor.ts); any node's sweep unlocks, with graphile-worker's own
// force_unlock_workers, the jobs of a pool whose heartbeat is older than DEAD_AFTER_MS (or that
// never had one) and whose lock is older than that too, so a pool that just started and has not
// written its first heartbeat keeps its jobs. A released job runs again; the handlers are
// idempotent (worker.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export interface LivenessTimes {
  /** How often a live pool refreshes its heartbeat and sweeps (default 5 s). */
  heartbeatMs: number;
  /** A pool silent this long is dead (default 30 s: six missed heartbeats). */
  deadAfterMs: number;
}

export const DEFAULT_LIVENESS: LivenessTimes = { heartbeatMs: 5_000, deadAfterMs: 30_000 };

/** Records that the pool `workerId` is alive now. */
export async function heartbeat(db: Db, workerId: string): Promise<void> {
  await db.execute(sql`insert into job_worker_heartbeats (worker_id) values (${workerId})
    on conflict (worker_id) do update set heartbeat_at = now()`);
}

/** The pool `workerId` has stopped: its heartbeat goes, so the next sweep releases its jobs. */
export async function forgetWorker(db: Db, workerId: string): Promise<void> {
  await db.execute(sql`delete from job_worker_heartbeats where worker_id = ${workerId}`);
}

/** Unlocks the jobs and queues of dead pools; returns the ids of the pools released. */
export async function releaseDeadWorkers(db: Db, deadAfterMs: number): Promise<string[]> {
  const dead = `${Math.max(0, Math.round(deadAfterMs))} milliseconds`;
  const r = await db.execute<{ locked_by: string }>(sql`
    select l.locked_by from (
      select locked_by, locked_at from graphile_worker._private_jobs where locked_by is not null
      union all
      select locked_by, locked_at from graphile_worker._private_job_queues where locked_by is not null
    ) l
    where l.locked_at < now() - ${dead}::interval
      and not exists (select 1 from job_worker_heartbeats h
                      where h.worker_id = l.locked_by and h.heartbeat_at > now() - ${dead}::interval)
    group by l.locked_by`);
  const ids = r.rows.map((row) => row.locked_by);
  if (ids.length > 0) await db.execute(sql`select graphile_worker.force_unlock_workers(${`{${ids.map((i) => `"${i.replace(/["\\]/g, '')}"`).join(',')}}`}::text[])`);
  // Heartbeats of pools gone for a day are history.
  await db.execute(sql`delete from job_worker_heartbeats where heartbeat_at < now() - interval '1 day'`);
  return ids;
}
