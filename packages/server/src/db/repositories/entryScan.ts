// The scan hot path's statements, on the raw pool and batched (db/batcher.ts): reading a barcode
// with its entry state (entry_scan_targets) and storing a decided scan (entry_scan_store and its
// batch forms). See docs/adr/0027-scans-without-a-held-lock.md and 0031-scan-read-inlined.md.
import type pg from 'pg';
import { Batcher, type BatchAnswer } from '../batcher.ts';
import type { DbOrTx } from '../client.ts';
import { poolFor } from '../transaction.ts';
import { dbError } from '../errors.ts';

// One statement (entry_scan_targets: a SQL function inlined into this prepared statement, whose
// shape makes the plan cache keep one generic plan per connection rather than plan every call;
// docs/adr/0031-scan-read-inlined.md): barcodes with their order, item, product, rule and entry
// state, and the scan a device_scan_id already names. Reads arriving together share it: the
// inputs are arrays, one answer row per input, also for an unknown barcode. Nothing is locked:
// the scan stores its decision only over the state read here.
const TARGET_SQL = 'select * from entry_scan_targets($1::text[], $2::int[], $3::text[])';

export type TargetQuery = { code: string | null; accountId: number | null; deviceScanId: string | null };
export type TargetRow = Record<string, any>;
const readers = new WeakMap<pg.Pool, Batcher<TargetQuery, TargetRow>>();

function reader(pool: pg.Pool): Batcher<TargetQuery, TargetRow> {
  let b = readers.get(pool);
  if (!b) {
    b = new Batcher<TargetQuery, TargetRow>({ lanes: 4, maxBatch: 64, lingerMs: 1, lingerBelow: 8 }, async (qs) => {
      const res = await pool.query<TargetRow>({ name: 'atrium_scan_targets', text: TARGET_SQL, values: [qs.map((q) => q.code), qs.map((q) => q.accountId), qs.map((q) => q.deviceScanId)] });
      return res.rows.map((ok) => ({ ok }));
    });
    readers.set(pool, b);
  }
  return b;
}

/** The row of entry_scan_targets for one barcode (and device_scan_id), batched with others. */
export function readScanTargetRow(db: DbOrTx, q: TargetQuery): Promise<TargetRow> {
  return reader(poolFor(db, 'the scan-target read')).submit(q);
}

// Group commit for scans, as orders have it (ADR 0010): scans decided while earlier ones are being
// stored go out together in one call of entry_scan_store_batch: one round trip, one transaction,
// one commit. Each scan keeps its own outcome: entry_scan_store never raises for one scan's sake
// (a state that moved on or a device_scan_id already taken are results), so a server error of a
// batch call is the call's, which then committed nothing: each of its scans is stored alone and
// ends exactly as without batching. A lost connection (outcome unknown) is passed on as it is.

/** entry_scan_store's answer: the scan id, 0 (state moved on: decide again) or -1 (device id taken). */
export type StoreResult = number;

async function storeAlone(pool: pg.Pool, json: string): Promise<StoreResult> {
  const r = await pool.query<{ id: StoreResult }>({ name: 'atrium_scan_store', text: 'select entry_scan_store($1::jsonb) as id', values: [json] });
  return Number(r.rows[0]!.id);
}

// Below SET_FROM scans a batch is stored one by one (entry_scan_store_each): the set-wise store
// costs more per call than entry_scan_store per scan, and only pays off from about five scans on
// (measured with bench/scan-store.ts).
const SET_FROM = 5;
const EACH = { name: 'atrium_scan_store_each', text: 'select entry_scan_store_each($1::jsonb) as r' };
const BATCH = { name: 'atrium_scan_store_batch', text: 'select entry_scan_store_batch($1::jsonb) as r' };

async function storeAll(pool: pg.Pool, jsons: string[]): Promise<Array<BatchAnswer<StoreResult>>> {
  const r = await pool.query<{ r: StoreResult[] }>({ ...(jsons.length < SET_FROM ? EACH : BATCH), values: [`[${jsons.join(',')}]`] });
  return r.rows[0]!.r.map((id) => ({ ok: Number(id) }));
}

/** Lanes: calls in flight at once (each holds a connection); a batch is one transaction. A free
 * lane waits 1 ms for company when fewer than 8 scans wait (ADR 0028). */
const OPTIONS = { lanes: 2, maxBatch: 64, lingerMs: 1, lingerBelow: 8 };
const stores = new WeakMap<pg.Pool, Batcher<string, StoreResult>>();

/** The scan store of one connection pool (one per process and database): submit a serialised payload. */
export function scanBatches(pool: pg.Pool): Batcher<string, StoreResult> {
  let b = stores.get(pool);
  if (!b) {
    b = new Batcher(OPTIONS, (jsons) => storeAll(pool, jsons), {
      alone: (json) => storeAlone(pool, json),
      onCallError: (err) => (dbError(err) ? 'alone' : 'fail'),
    });
    stores.set(pool, b);
  }
  return b;
}

/** Stores one decided scan (its entry_scan_store payload, serialised), batched with others. */
export function storeScanPayload(db: DbOrTx, json: string): Promise<StoreResult> {
  return scanBatches(poolFor(db, 'storing a scan')).submit(json);
}
