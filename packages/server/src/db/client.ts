// One pg pool and one Drizzle handle per process. Domain verbs receive a `Db` (the pool-backed
// handle or a transaction) through their context and never open connections themselves.
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { parseTimestamptz } from './timestamptz.ts';

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema> & { $client: pg.Pool };
/** A transaction handle; it has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// timestamptz and date values stay exact: dates are returned as 'YYYY-MM-DD' strings (never
// shifted through the process's zone), int8 counts as numbers (our ids stay far below 2^53).
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export interface DatabaseTimeouts {
  /** statement_timeout of every connection; the client gives up 2 s later (a frozen server). */
  statementMs: number;
  /** lock_timeout of every connection (capacity code sets a shorter one per transaction). */
  lockMs: number;
}

export function openDatabase(
  url: string,
  opts: {
    max?: number;
    applicationName?: string;
    timeouts?: DatabaseTimeouts;
    /** How long an unused connection stays open (default 30 s). */
    idleMs?: number;
  } = {},
): Database {
  const t = opts.timeouts;
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 20,
    application_name: opts.applicationName ?? 'atrium',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: opts.idleMs ?? 30000,
    ...(t
      ? {
          statement_timeout: t.statementMs,
          lock_timeout: t.lockMs,
          idle_in_transaction_session_timeout: t.statementMs + 5000,
          // Client side: a server that does not answer at all (frozen, partitioned) cannot
          // enforce its statement_timeout.
          query_timeout: t.statementMs + 2000,
        }
      : {}),
  });
  // An idle client that loses its server (database restart) emits 'error' on the pool; without a
  // listener that would crash the process. The next query simply gets a fresh connection.
  pool.on('error', () => {});
  // The same for a client while it is checked out (the job worker holds one for LISTEN): a
  // connection lost between queries must fail its next query, not crash the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return {
    db,
    pool,
    close: () => pool.end(),
  };
}
