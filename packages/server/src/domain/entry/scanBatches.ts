// Group commit for scans, as orders have it (ADR 0010; docs/adr/0027-scans-without-a-held-lock.md):
// scans decided while earlier ones are being stored go out together (db/batcher.ts) in one call of
// entry_scan_store_batch (src/db/sql/entry_scan_store_batch.sql): one round trip, one transaction,
// one commit. Why: at a gate rush every scan paid for its own statement and its own WAL flush
// (bench/README.md, "Entry").
//
// Each scan keeps its own outcome: entry_scan_store never raises for one scan's sake (a state
// that moved on or a device_scan_id already taken are results), so a server error of a batch
// call is the call's, which then committed nothing: each of its scans is stored alone and ends
// exactly as without batching. A lost connection (outcome unknown) is passed on as it is.
import type pg from 'pg';
import { Batcher, type BatchAnswer } from '../../db/batcher.ts';
import { sqlState } from '../../db/sqlstate.ts';

/** entry_scan_store's answer: the scan id, 0 (state moved on: decide again) or -1 (device id taken). */
export type StoreResult = number;

async function alone(pool: pg.Pool, json: string): Promise<BatchAnswer<StoreResult>> {
  try {
    const r = await pool.query<{ id: StoreResult }>({ name: 'atrium_scan_store', text: 'select entry_scan_store($1::jsonb) as id', values: [json] });
    return { ok: Number(r.rows[0]!.id) };
  } catch (err) {
    return { err };
  }
}

// Below five scans a batch is stored one by one (src/db/sql/entry_scan_store_each.sql): the
// set-wise store costs more per call than entry_scan_store per scan, and only pays off from five
// scans on (bench/scan-store.ts: backend CPU per scan 1.20x one by one for 2 scans, 1.09x for 3,
// 0.99x for 5, 0.83x for 20). At 1,000 scans/s a batch carries about 3 scans.
const SET_FROM = 5;
const EACH = { name: 'atrium_scan_store_each', text: 'select entry_scan_store_each($1::jsonb) as r' };
const BATCH = { name: 'atrium_scan_store_batch', text: 'select entry_scan_store_batch($1::jsonb) as r' };

async function storeAll(pool: pg.Pool, jsons: string[]): Promise<Array<BatchAnswer<StoreResult>>> {
  if (jsons.length === 1) return [await alone(pool, jsons[0]!)];
  try {
    const r = await pool.query<{ r: StoreResult[] }>({ ...(jsons.length < SET_FROM ? EACH : BATCH), values: [`[${jsons.join(',')}]`] });
    return r.rows[0]!.r.map((id) => ({ ok: Number(id) }));
  } catch (err) {
    if (!sqlState(err)) throw err;
    return Promise.all(jsons.map((j) => alone(pool, j)));
  }
}

/** Lanes: calls in flight at once (each holds a connection); a batch is one transaction. A free
 * lane waits 1 ms for company when fewer than 8 scans wait (db/batcher.ts, ADR 0028). */
const OPTIONS = { lanes: 2, maxBatch: 64, lingerMs: 1, lingerBelow: 8 };
const byPool = new WeakMap<pg.Pool, Batcher<string, StoreResult>>();

/** The scan store of one connection pool (one per process and database): submit a serialised payload. */
export function scanBatches(pool: pg.Pool): Batcher<string, StoreResult> {
  let b = byPool.get(pool);
  if (!b) byPool.set(pool, (b = new Batcher(OPTIONS, (jsons) => storeAll(pool, jsons))));
  return b;
}
