// Database timeouts per request class (docs/operations.md, "Limits and their settings"; ADR 0016).
// Every connection of a pool carries its class's statement_timeout and lock_timeout, so a
// frozen or locked database turns into a quick error instead of a request that hangs:
// - web: the write timeout (ATRIUM_WRITE_TIMEOUT_MS); reads are answered sooner by the read
//   deadline of http/api/plugins/deadline.ts (ATRIUM_READ_TIMEOUT_MS);
// - jobs: the background worker's own pool (ATRIUM_JOB_TIMEOUT_MS): sweeps and purges may run
//   longer than any request should.
// lock_timeout is ATRIUM_LOCK_TIMEOUT_MS for both, the value the capacity code already sets per
// transaction for slot locks: no statement waits for a lock longer than that.
import type { Config } from '../config.ts';
import type { DatabaseTimeouts } from './client.ts';

export type RequestClass = 'web' | 'jobs';

export function databaseTimeouts(config: Pick<Config, 'writeTimeoutMs' | 'jobTimeoutMs' | 'lockTimeoutMs'>, cls: RequestClass): { timeouts: DatabaseTimeouts } {
  const statementMs = cls === 'jobs' ? config.jobTimeoutMs : config.writeTimeoutMs;
  return { timeouts: { statementMs, lockMs: config.lockTimeoutMs } };
}
