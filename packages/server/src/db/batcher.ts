// Natural batching of one kind of statement (the pattern of orders/orderBatches.ts, ADR 0010,
// without its order-specific requeueing): an item submitted while `lanes` calls are in flight
// waits, and goes out with everything that queued meanwhile in the next call. Under load a call
// carries what arrived during the previous one, so round trips (and, for writes, commits) are
// shared.
//
// `lingerMs` (optional): with a lane free but fewer than `lingerBelow` items waiting, the batch
// waits that long for company. At a steady moderate rate a free lane otherwise sends every item
// alone, each paying a whole round trip (and commit): the gate at 1,000 scans/s spent twice the
// CPU per scan of a rush, and the two cores' queueing was its latency (ADR 0028). Without it,
// with no load each item goes out at once and alone.
export type BatchAnswer<O> = { ok: O } | { err: unknown };

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
  /** For tests and the benchmark: how much batching happened (calls with more than one item). */
  readonly stats = { calls: 0, batches: 0, batchedItems: 0, largest: 0 };

  /** `run` answers each item in order; a rejection of `run` itself fails every item of the call. */
  constructor(
    private readonly opts: { lanes: number; maxBatch: number; lingerMs?: number; lingerBelow?: number },
    private readonly run: (items: I[]) => Promise<Array<BatchAnswer<O>>>,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, at: performance.now(), resolve, reject });
      this.pump();
    });
  }

  private timer: NodeJS.Timeout | null = null;

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
    if (batch.length > 1) {
      this.stats.batches++;
      this.stats.batchedItems += batch.length;
      this.stats.largest = Math.max(this.stats.largest, batch.length);
    }
    try {
      const answers = await this.run(batch.map((p) => p.item));
      batch.forEach((p, i) => {
        const a = answers[i];
        if (a && 'ok' in a) p.resolve(a.ok);
        else p.reject(a ? a.err : new Error('batch answered fewer items than it was given'));
      });
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
