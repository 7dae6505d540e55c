-- The live job workers of the cluster (src/jobs/liveness.ts). graphile-worker locks a job with its
-- worker pool's id and releases a crashed pool's jobs only after four hours; each running pool
-- records its id here and refreshes `heartbeat_at`, so any node can release at once the jobs of a
-- pool whose heartbeat stopped (process killed, runner stopped by an error).
CREATE TABLE job_worker_heartbeats (
  worker_id text PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
