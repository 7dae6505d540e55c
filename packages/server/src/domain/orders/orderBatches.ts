// Group commit for new orders (ADR 0010). An order that arrives while earlier orders are being
// written waits for the next free "lane" and is then written together with everything else that
// queued meanwhile: one round trip, one transaction, one commit (order_place_batch, migration
// 0008). Nothing waits for a timer: with no load every order goes out at once and alone, exactly
// as before; under load a batch holds what arrived during the previous one. Why: every order paid
// for its own statement, transaction and commit, and on one hot slot for its own lock hand-over;
// those costs are now shared by the batch (bench/README.md, "Booking").
//
// Each order keeps its own outcome. Inside the batch every order runs in its own subtransaction:
// a sold-out slot or a lock wait that ran out refuses that order only. Any other failure of an
// order, or a server error of the whole call (which then committed nothing), makes the order run
// again alone, so it ends exactly as it would have without batching: same answer, same error.
// Only a lost connection, where the outcome is unknown, is passed on as it is (as for a single
// order: the client finds out with GET /orders?foreign_id=, spec 7.4.2).
import type pg from 'pg';
import { sqlState } from '../../db/sqlstate.ts';

/** What order_place_batch says about one order that failed inside its subtransaction. */
interface BatchError {
  code: string;
  constraint: string | null;
  message: string;
}
type BatchResult = { placed: unknown } | { error: BatchError };

/** Failures that belong to the order itself: answered at once, never retried alone. */
const OWN_REFUSALS = new Set(['AT001', '55P03']); // sold out; lock wait ran out (CAPACITY_BUSY)
/**
 * A later order of a batch found a capacity lock taken by another writer: only a batch's first
 * order waits for locks (src/db/sql/order_place_batch.sql), so a batch never waits while it holds
 * locks (no deadlocks) and a busy slot cannot stall the unrelated orders batched with it.
 */
const LOCK_BUSY = 'AT002';

export interface BatchOptions {
  /** Most orders in one batch; at most 64, PostgreSQL's cache of subtransaction ids. */
  maxBatch: number;
  /** Batches being written at the same time (each holds one connection). */
  lanes: number;
}

interface Pending {
  /** The order_place payload, serialised once. */
  json: string;
  resolve(placed: unknown): void;
  reject(err: unknown): void;
}

export class OrderBatches {
  private readonly queue: Pending[] = [];
  private busy = 0;
  /** For tests and the benchmark: how much batching happened. */
  readonly stats = { batches: 0, batchedOrders: 0, largest: 0 };

  constructor(
    private readonly pool: pg.Pool,
    private readonly opts: BatchOptions,
  ) {}

  /** Places one order (its order_place payload); resolves with order_place's result. */
  place(json: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ json, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.busy < this.opts.lanes && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.busy++;
      void this.write(batch).finally(() => {
        this.busy--;
        this.pump();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]!);
    let results: BatchResult[];
    try {
      const r = await this.pool.query<{ r: BatchResult[] }>({
        name: 'order_place_batch',
        text: 'select order_place_batch($1::jsonb) as r',
        values: [`[${batch.map((p) => p.json).join(',')}]`],
      });
      results = r.rows[0]!.r;
    } catch (err) {
      // A server error undid the whole call: place every order alone. A lost connection leaves
      // the outcome unknown: a retry could write an order twice, so the error goes back as is.
      if (sqlState(err)) await Promise.all(batch.map((p) => this.alone(p)));
      else for (const p of batch) p.reject(err);
      return;
    }
    this.stats.batches++;
    this.stats.batchedOrders += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    const retries: Array<Promise<void>> = [];
    const busy: Pending[] = [];
    results.forEach((res, i) => {
      const p = batch[i]!;
      if ('placed' in res) p.resolve(res.placed);
      else if (res.error.code === LOCK_BUSY) busy.push(p);
      else if (OWN_REFUSALS.has(res.error.code)) p.reject(Object.assign(new Error(res.error.message), { code: res.error.code }));
      else retries.push(this.alone(p));
    });
    // Orders whose slot another writer held open the next batch, where the first may wait.
    this.queue.unshift(...busy);
    await Promise.all(retries);
  }

  /** One order in its own statement (and so its own transaction), as without batching. */
  private async alone(p: Pending): Promise<void> {
    try {
      const r = await this.pool.query<{ placed: unknown }>('select order_place($1::jsonb) as placed', [p.json]);
      p.resolve(r.rows[0]!.placed);
    } catch (err) {
      p.reject(err);
    }
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
