// POST /scans: one scan at a door (docs/api-contract.md §14, docs/adr/0017-entry-control.md). Every scan is
// stored, refused or not. The barcode is read with its entry state in one statement, the scan is
// decided in Node (rules.ts; the earliest scan wins, also for scans posted late from an offline
// device), and storeScan.ts writes it in one statement over the state version read, so scans of
// one barcode on every node are decided one after the other without a lock held between round
// trips (docs/adr/0027-scans-without-a-held-lock.md).
import { scanBarcodeOf } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid } from '../errors.ts';
import { normaliseBarcode } from '../orders/barcodes.ts';
import { inMuseumScope } from '../principal.ts';
import { parseTimestamp } from '../time.ts';
import { readScanTarget, type BarcodeFacts, type ScanView } from './internal.ts';
import { scanJson, type ScanJson } from './json.ts';
import { DeviceScanTaken, storeScan, type StoredScan } from './storeScan.ts';
import { loadScanViews } from './views.ts';
import { entryWindow, MAX_CLOCK_SKEW_MS, windowResult, type Direction, type ScanResult } from './rules.ts';

export interface ScanInput {
  barcode: string;
  direction?: Direction;
  location?: string | null;
  device_scan_id?: string | null;
  scanned_at?: string | null;
  people_count?: number | null;
}

/** Longest code looked up; longer input is a 422 (barcodes are 14 characters). */
export const MAX_BARCODE_LENGTH = 64;
function accountOf(ctx: Ctx): number {
  if (ctx.principal.kind !== 'account') throw invalid('scanning needs a token');
  return ctx.principal.accountId;
}

/** Refusals that do not depend on the barcode's other scans. */
export function fixedResult(ctx: Ctx, f: BarcodeFacts | null, direction: Direction, at: Date): ScanResult | null {
  if (!f) return 'unknown';
  if (!inMuseumScope(ctx.principal, f.museumId)) return 'wrong_museum';
  if (f.barcodeStatus !== 'valid' || f.itemStatus !== 'active' || f.orderStatus !== 'finalized') return 'cancelled';
  return direction === 'entry' ? windowResult(at, entryWindow(f.item, f.rule.earlyMinutes)) : null;
}

export async function scanBarcode(ctx: Ctx, input: ScanInput): Promise<ScanOutcome> {
  const accountId = accountOf(ctx);
  const direction = input.direction ?? 'entry';
  const raw = input.barcode.trim();
  if (raw.length === 0 || raw.length > MAX_BARCODE_LENGTH) throw invalid(`barcode must be 1 to ${MAX_BARCODE_LENGTH} characters`);
  const now = ctx.clock.now();
  let scannedAt = now;
  if (input.scanned_at) {
    const parsed = parseTimestamp(input.scanned_at, ctx.config.zone);
    if (!parsed) throw invalid('scanned_at must be an ISO 8601 timestamp');
    // A device clock far ahead would win every "earliest scan" contest: refused, not stored.
    if (parsed.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) throw invalid('scanned_at is in the future');
    scannedAt = parsed;
  }
  const deviceScanId = input.device_scan_id ?? null;
  const code = normaliseBarcode(raw);
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const done = await scanOnce(ctx, { accountId, raw, code, direction, scannedAt, now, deviceScanId, input });
    if (done) return done;
    // Another scan of this barcode was stored between our read and our write: read and decide
    // again. Each round stores at least one of the racing scans, so this ends; the bound is for
    // a database so slow that the gate is better told to retry (CAPACITY_BUSY).
    if (attempt >= MAX_ATTEMPTS || Date.now() - started > BUDGET_MS) throw new DomainError('CAPACITY_BUSY', 'this barcode is being scanned elsewhere right now; scan it again', { retryAfter: 1 });
  }
}

const MAX_ATTEMPTS = 200;
const BUDGET_MS = 10_000;

interface Attempt {
  accountId: number;
  raw: string;
  code: string | null;
  direction: Direction;
  scannedAt: Date;
  now: Date;
  deviceScanId: string | null;
  input: ScanInput;
}

export interface ScanOutcome {
  scanId: number;
  replayed: boolean;
  /** What the gate is told, and its JSON; absent for a replay (load it with loadScanViews). */
  stored?: StoredScan;
}

/**
 * A device_scan_id already stored: the stored scan's answer when it is the same barcode (a retry),
 * else a refusal. A device that reuses an id for another barcode (a reset counter, a bug) would
 * otherwise be told the first barcode's verdict, e.g. admit a ticket that was never checked.
 * Nothing is stored: the id is the device's, and which of the two scans it means is unknown.
 */
async function replayOf(ctx: Ctx, scanId: number, barcode: string): Promise<ScanOutcome> {
  const stored = await scanBarcodeOf(ctx.db, scanId);
  if (stored !== barcode) {
    throw invalid('device_scan_id was already used for another barcode', [
      'device_scan_id must be new for every scan; repeat it only to retry the same scan',
    ]);
  }
  return { scanId, replayed: true };
}

/** One read-decide-store round; null when the barcode's state moved on in between. */
async function scanOnce(ctx: Ctx, a: Attempt): Promise<ScanOutcome | null> {
  const { accountId, raw, code, direction, scannedAt, deviceScanId, input } = a;
  const target = await readScanTarget(ctx.db, code, { accountId, deviceScanId });
  if (target.seenScanId !== null) return replayOf(ctx, target.seenScanId, code ?? raw);
  const facts = target.facts;
  // An online scan happens when its barcode is read: scans of one barcode are decided in the
  // order their state versions are stored (docs/adr/0027-scans-without-a-held-lock.md).
  const at = input.scanned_at ? scannedAt : ctx.clock.now();
  const fixed = fixedResult(ctx, facts, direction, at);
  const inScope = facts !== null && fixed !== 'wrong_museum';
  const people = input.people_count ?? (inScope ? facts.covers : 1);
  if (inScope && people > facts.covers) throw invalid(`people_count must be at most ${facts.covers} for this barcode`);
  try {
    const stored = await storeScan(ctx.db, ctx, {
      accountId, deviceScanId, code: code ?? raw, facts: inScope ? facts : null, state: inScope ? target.state : null, fixed, direction, people,
      scannedAt: at, online: !input.scanned_at, now: a.now, input, check: !ctx.testing?.disableEntryLocks,
    });
    return stored ? { scanId: stored.view.id, replayed: false, stored } : null;
  } catch (e) {
    // The same device_scan_id posted twice at once: the loser answers with the winner's scan.
    if (!(e instanceof DeviceScanTaken)) throw e;
    const again = await readScanTarget(ctx.db, null, { accountId, deviceScanId });
    return replayOf(ctx, again.seenScanId!, code ?? raw);
  }
}

/** A scan and what its gate is told: the stored answer for a replay, else the fresh decision. */
export async function scanWithView(ctx: Ctx, input: ScanInput): Promise<{ view: ScanView; json: ScanJson; replayed: boolean }> {
  const out = await scanBarcode(ctx, input);
  if (out.stored) return { ...out.stored, replayed: out.replayed };
  const view = (await loadScanViews(ctx.db, ctx, [out.scanId]))[0]!;
  return { view, json: scanJson(view, ctx.config.zone), replayed: out.replayed };
}
