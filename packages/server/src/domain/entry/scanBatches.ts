// Group commit for scans, as orders have it (orders/orderBatches.ts, ADR 0010): a scan decided
// while earlier scans are being stored waits for the next free lane and is stored together with
// everything that queued meanwhile: one round trip, one transaction, one commit
// (entry_scan_store_batch, migration 0026). Nothing waits for a timer: a lone scan goes out at
// once, alone. Why: at a gate rush every scan paid for its own statement and its own WAL flush
// (bench/README.md, "Entry").
//
// Each scan keeps its own outcome: entry_scan_store never raises for one scan's sake (a version
// that moved on or a device_scan_id already taken are results, not errors), so a server error of
// a batch call is the call's, which then committed nothing: every scan of it is stored alone, and
// ends exactly as it would have without batching. A lost connection (outcome unknown) is passed on.
import type pg from 'pg';

/** entry_scan_store's answer: the scan id, 0 (state moved on: decide again) or -1 (device id taken). */
export type StoreResult = number;

const LANES = 2;
/** Most scans in one call; one transaction, so a batch's row locks are held until its commit. */
const MAX_BATCH = 64;

interface Pending {
  json: string;
  resolve(r: StoreResult): void;
  reject(err: unknown): void;
}

const hasSqlstate = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);

export class ScanBatches {
  private readonly queue: Pending[] = [];
  private busy = 0;
  /** For tests and the benchmark: how much batching happened. */
  readonly stats = { batches: 0, batchedScans: 0, largest: 0 };

  constructor(private readonly pool: pg.Pool) {}

  /** Stores one scan (its entry_scan_store payload, serialised). */
  store(json: string): Promise<StoreResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ json, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.busy < LANES && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.busy++;
      void this.write(batch).finally(() => {
        this.busy--;
        this.pump();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]!);
    let results: StoreResult[];
    try {
      const r = await this.pool.query<{ r: StoreResult[] }>({
        name: 'atrium_scan_store_batch',
        text: 'select entry_scan_store_batch($1::jsonb) as r',
        values: [`[${batch.map((p) => p.json).join(',')}]`],
      });
      results = r.rows[0]!.r;
    } catch (err) {
      if (hasSqlstate(err)) await Promise.all(batch.map((p) => this.alone(p)));
      else for (const p of batch) p.reject(err);
      return;
    }
    this.stats.batches++;
    this.stats.batchedScans += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    results.forEach((id, i) => batch[i]!.resolve(Number(id)));
  }

  private async alone(p: Pending): Promise<void> {
    try {
      const r = await this.pool.query<{ id: StoreResult }>({ name: 'atrium_scan_store', text: 'select entry_scan_store($1::jsonb) as id', values: [p.json] });
      p.resolve(Number(r.rows[0]!.id));
    } catch (err) {
      p.reject(err);
    }
  }
}

const byPool = new WeakMap<pg.Pool, ScanBatches>();

/** The scan batches of one connection pool (one per process and database). */
export function scanBatches(pool: pg.Pool): ScanBatches {
  let b = byPool.get(pool);
  if (!b) byPool.set(pool, (b = new ScanBatches(pool)));
  return b;
}
