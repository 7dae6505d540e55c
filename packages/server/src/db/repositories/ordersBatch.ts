// Group commit of new orders (ADR 0010) on the generic batcher (db/batcher.ts): orders that queue
// while earlier ones are written go out together in one call of order_place_batch
// (src/db/sql/order_place_batch.sql): one round trip, one transaction, one commit. Why: every
// order paid for its own statement, transaction and commit, and on one hot slot for its own lock
// hand-over; those costs are shared by the batch.
//
// Inside the batch every order runs in its own subtransaction. The order-specific policy, as data:
// - OWN_REFUSALS (sold out, a lock wait that ran out): the order's own answer, given at once;
// - LOCK_BUSY: a later order of a batch found a capacity lock taken by another writer. Only a
//   batch's first order waits for locks, so a batch never waits while it holds locks (no
//   deadlocks) and a busy slot cannot stall the unrelated orders batched with it: the order opens
//   the next batch, where it may wait;
// - any other failure of an order, or a server error of the whole call (which then committed
//   nothing): the order runs again alone and ends exactly as without batching. Only a lost
//   connection, where the outcome is unknown, is passed on as it is (as for a single order: the
//   client finds out with GET /orders?foreign_id=).
import type pg from 'pg';
import { Batcher, type BatchAnswer } from '../batcher.ts';
import { CUSTOM_SQLSTATE, PG_SQLSTATE, dbError } from '../errors.ts';

/** What order_place_batch says about one order that failed inside its subtransaction. */
interface BatchError {
  code: string;
  constraint: string | null;
  message: string;
}
type BatchResult = { placed: unknown } | { error: BatchError };

const OWN_REFUSALS = new Set<string>([CUSTOM_SQLSTATE.SOLD_OUT, PG_SQLSTATE.LOCK_NOT_AVAILABLE]);

export interface BatchOptions {
  /** Most orders in one batch; at most 64, PostgreSQL's cache of subtransaction ids. */
  maxBatch: number;
  /** Batches being written at the same time (each holds one connection). */
  lanes: number;
}

function answerOf(res: BatchResult): BatchAnswer<unknown> {
  if ('placed' in res) return { ok: res.placed };
  if (res.error.code === CUSTOM_SQLSTATE.LOCK_BUSY) return { again: 'next' };
  if (OWN_REFUSALS.has(res.error.code)) return { err: Object.assign(new Error(res.error.message), { code: res.error.code }) };
  return { again: 'alone' };
}

/** One order in its own statement (and so its own transaction), as without batching. */
async function placeAlone(pool: pg.Pool, json: string): Promise<unknown> {
  const r = await pool.query<{ placed: unknown }>('select order_place($1::jsonb) as placed', [json]);
  return r.rows[0]!.placed;
}

export class OrderBatches {
  private readonly batcher: Batcher<string, unknown>;

  constructor(pool: pg.Pool, opts: BatchOptions) {
    this.batcher = new Batcher<string, unknown>(
      { lanes: opts.lanes, maxBatch: opts.maxBatch },
      async (jsons) => {
        const r = await pool.query<{ r: BatchResult[] }>({
          name: 'order_place_batch',
          text: 'select order_place_batch($1::jsonb) as r',
          values: [`[${jsons.join(',')}]`],
        });
        return r.rows[0]!.r.map(answerOf);
      },
      { alone: (json) => placeAlone(pool, json), onCallError: (err) => (dbError(err) ? 'alone' : 'fail') },
    );
  }

  /** For tests and the benchmark: how much batching happened. */
  get stats(): { batches: number; batchedOrders: number; largest: number } {
    const s = this.batcher.stats;
    return { batches: s.batches, batchedOrders: s.batchedItems, largest: s.largest };
  }

  /** Places one order (its order_place payload); resolves with order_place's result. */
  place(json: string): Promise<unknown> {
    return this.batcher.submit(json);
  }
}

const byPool = new WeakMap<pg.Pool, OrderBatches>();

/** The batches of one connection pool (one per process and database). */
export function orderBatches(pool: pg.Pool, opts: BatchOptions): OrderBatches {
  let b = byPool.get(pool);
  if (!b) {
    b = new OrderBatches(pool, opts);
    byPool.set(pool, b);
  }
  return b;
}

/** How much batching happened on this pool so far (tests, the benchmark); null before any. */
export function batchStats(pool: pg.Pool): OrderBatches['stats'] | null {
  return byPool.get(pool)?.stats ?? null;
}
