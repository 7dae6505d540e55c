// Group commit of one kind of statement (ADR 0010): an item submitted while `lanes` calls are in
// flight waits, and goes out with everything that queued meanwhile in the next call. Under load
// a call carries what arrived during the previous one, so round trips (and, for writes, commits)
// are shared; with no load each item goes out at once and alone. Used for new orders
// (repositories/ordersBatch.ts) and for entry scans (repositories/entryStore.ts, entryRead.ts).
//
// `lingerMs` (optional): with a lane free but fewer than `lingerBelow` items waiting, the batch
// waits that long for company. At a steady moderate rate a free lane otherwise sends every item
// alone, each paying a whole round trip (and commit) (ADR 0028).
//
// Each item keeps its own outcome. The caller's policy says what a failure means:
// - an answer `{ again: 'alone' }`: the item runs again on its own (`alone`), so it ends exactly
//   as it would have without batching;
// - an answer `{ again: 'next' }`: the item opens the next call (it met something busy that only
//   the first item of a call may wait for);
// - a rejection of the whole call: `onCallError` says 'alone' (the call committed nothing: each
//   item runs alone) or 'fail' (every item of the call fails with it, e.g. a lost connection,
//   where the outcome is unknown and a retry could write twice).
export type BatchAnswer<O> = { ok: O } | { err: unknown } | { again: 'alone' | 'next' };

export interface BatcherOptions {
  /** Calls in flight at the same time (each holds one connection). */
  lanes: number;
  /** Most items in one call. */
  maxBatch: number;
  lingerMs?: number;
  lingerBelow?: number;
}

export interface BatchPolicy<I, O> {
  /** One item in its own call: for a call of one item and for `{ again: 'alone' }`. Default: `run([item])`. */
  alone?: (item: I) => Promise<O>;
  /** What a rejection of a whole call means; default 'fail'. */
  onCallError?: (err: unknown) => 'alone' | 'fail';
}

interface Pending<I, O> {
  item: I;
  /** performance.now() at submit: an item never lingers longer than lingerMs in all. */
  at: number;
  resolve(o: O): void;
  reject(err: unknown): void;
}

export class Batcher<I, O> {
  private readonly queue: Array<Pending<I, O>> = [];
  private busy = 0;
  private timer: NodeJS.Timeout | null = null;
  /** For tests and the benchmark: calls made, and the calls of more than one item that succeeded. */
  readonly stats = { calls: 0, batches: 0, batchedItems: 0, largest: 0 };

  /** `run` answers each item in order. */
  constructor(
    private readonly opts: BatcherOptions,
    private readonly run: (items: I[]) => Promise<Array<BatchAnswer<O>>>,
    private readonly policy: BatchPolicy<I, O> = {},
  ) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, at: performance.now(), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    const { lingerMs, lingerBelow = this.opts.maxBatch } = this.opts;
    while (this.busy < this.opts.lanes && this.queue.length > 0) {
      // Items that already waited (for the linger, or for a busy lane) go out at once.
      const left = lingerMs ? this.queue[0]!.at + lingerMs - performance.now() : 0;
      if (left > 0 && this.queue.length < lingerBelow) {
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.pump();
        }, left);
        return;
      }
      const batch = this.queue.splice(0, this.opts.maxBatch);
      if (this.timer && this.queue.length === 0) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      this.busy++;
      void this.call(batch).finally(() => {
        this.busy--;
        this.pump();
      });
    }
  }

  private async call(batch: Array<Pending<I, O>>): Promise<void> {
    this.stats.calls++;
    if (batch.length === 1 && this.policy.alone) return this.alone(batch[0]!);
    let answers: Array<BatchAnswer<O>>;
    try {
      answers = await this.run(batch.map((p) => p.item));
    } catch (err) {
      if (this.policy.onCallError?.(err) === 'alone') await Promise.all(batch.map((p) => this.alone(p)));
      else for (const p of batch) p.reject(err);
      return;
    }
    if (batch.length > 1) {
      this.stats.batches++;
      this.stats.batchedItems += batch.length;
      this.stats.largest = Math.max(this.stats.largest, batch.length);
    }
    const retries: Array<Promise<void>> = [];
    const next: Array<Pending<I, O>> = [];
    batch.forEach((p, i) => {
      const a = answers[i];
      if (!a) p.reject(new Error('batch answered fewer items than it was given'));
      else if ('ok' in a) p.resolve(a.ok);
      else if ('err' in a) p.reject(a.err);
      else if (a.again === 'next') next.push(p);
      else retries.push(this.alone(p));
    });
    this.queue.unshift(...next);
    await Promise.all(retries);
  }

  /** One item in its own call, as without batching. */
  private async alone(p: Pending<I, O>): Promise<void> {
    try {
      if (this.policy.alone) return p.resolve(await this.policy.alone(p.item));
      const [a] = await this.run([p.item]);
      if (a && 'ok' in a) p.resolve(a.ok);
      else p.reject(a && 'err' in a ? a.err : new Error('an item run alone was not answered'));
    } catch (err) {
      p.reject(err);
    }
  }
}
