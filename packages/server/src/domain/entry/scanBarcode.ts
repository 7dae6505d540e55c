// POST /scans: one scan at a door (docs/api-contract.md §14, docs/adr/0017-entry-control.md). Every scan is
// stored, refused or not. The barcode row is locked first, so scans of one barcode serialise on
// every node; storeScan.ts then decides it (the earliest scan wins, also for scans posted late
// from an offline device) and writes it with the barcode's state and the scan.created event.
import { and, eq } from 'drizzle-orm';
import { scans } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { normaliseBarcode } from '../orders/barcodes.ts';
import { inMuseumScope } from '../principal.ts';
import { parseTimestamp } from '../time.ts';
import { findBarcode, type BarcodeFacts } from './internal.ts';
import { DeviceScanTaken, storeScan } from './storeScan.ts';
import { scanJson } from './json.ts';
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

export async function scanBarcode(ctx: Ctx, input: ScanInput): Promise<{ scanId: number; replayed: boolean }> {
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
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await scanOnce(ctx, { accountId, raw, direction, scannedAt, now, deviceScanId, input });
    } catch (e) {
      // Scans of one barcode queue on its row lock; a queue longer than the lock timeout (many
      // gates, one code, a loaded database) waits again instead of failing the gate, bounded in
      // attempts and time; past that the lock timeout answers CAPACITY_BUSY (retry).
      if (attempt < LOCK_ATTEMPTS && Date.now() - started < LOCK_BUDGET_MS && lockTimedOut(e)) continue;
      throw e;
    }
  }
}

const LOCK_ATTEMPTS = 10;
const LOCK_BUDGET_MS = 30_000;

function lockTimedOut(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: string }).code === '55P03') return true;
  }
  return false;
}

interface Attempt {
  accountId: number;
  raw: string;
  direction: Direction;
  scannedAt: Date;
  now: Date;
  deviceScanId: string | null;
  input: ScanInput;
}

async function scanOnce(ctx: Ctx, a: Attempt): Promise<{ scanId: number; replayed: boolean }> {
  const { accountId, raw, direction, scannedAt, now, deviceScanId, input } = a;
  try {
    return await ctx.db.transaction(async (tx) => {
      if (deviceScanId !== null) {
        const [seen] = await tx.select({ id: scans.id }).from(scans).where(and(eq(scans.accountId, accountId), eq(scans.deviceScanId, deviceScanId)));
        if (seen) return { scanId: seen.id, replayed: true };
      }
      const code = normaliseBarcode(raw);
      const facts = code ? await findBarcode(tx, code, !ctx.testing?.disableEntryLocks) : null;
      // An online scan happens when it holds the lock: its time is read now, so online scans are
      // decided in lock order and never replay one another (docs/adr/0017-entry-control.md).
      const at = input.scanned_at ? scannedAt : ctx.clock.now();
      const fixed = fixedResult(ctx, facts, direction, at);
      const inScope = facts !== null && fixed !== 'wrong_museum';
      const people = input.people_count ?? (inScope ? facts.covers : 1);
      if (inScope && people > facts.covers) throw invalid(`people_count must be at most ${facts.covers} for this barcode`);
      const view = await storeScan(tx, ctx, { accountId, deviceScanId, code: code ?? raw, facts: inScope ? facts : null, fixed, direction, people, scannedAt: at, online: !input.scanned_at, now, input });
      // The outbox row commits with the scan (webhooks read it later, docs/adr/0017-entry-control.md).
      await recordEvent({ ...ctx, db: tx }, 'scan.created', {
        data: { scan: scanJson(view, ctx.config.zone) },
        museumIds: view.museumId ? [view.museumId] : [],
        accountId: inScope ? facts.orderAccountId : null,
      });
      return { scanId: view.id, replayed: false };
    });
  } catch (e) {
    // The same device_scan_id posted twice at once: the loser answers with the winner's scan.
    if (!(e instanceof DeviceScanTaken)) throw e;
    const [seen] = await ctx.db.select({ id: scans.id }).from(scans).where(and(eq(scans.accountId, accountId), eq(scans.deviceScanId, deviceScanId!)));
    return { scanId: seen!.id, replayed: true };
  }
}
