// Messages and environment shared by the cluster primary and its workers.
import { UsageError } from '../config.ts';

export type ToPrimary = { type: 'ready'; port: number };
export type ToWorker = { type: 'shutdown' };

export const WORKER_ENV = {
  /** The database URL the primary located (embedded or DATABASE_URL). */
  url: 'ATRIUM_CLUSTER_DATABASE_URL',
  /** Pool size per worker. */
  pool: 'ATRIUM_CLUSTER_POOL',
} as const;

export const MAX_WORKERS = 64;

/** `--workers` value → a count; throws a usage message on anything else. */
export function parseWorkers(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new UsageError(`--workers must be a whole number between 1 and ${MAX_WORKERS}, got "${raw}"`);
  }
  return n;
}

/**
 * Connections per worker: together about 40 (the single-process server uses 20), at least 8 each
 * so a worker can still run parallel transactions. The embedded PostgreSQL allows 200.
 */
export function poolPerWorker(workers: number): number {
  return Math.max(8, Math.ceil(40 / workers));
}
