// GET /api/v3/barcodes/:barcode (go~mus "check"): what an entry scan would answer now, without
// storing a scan or using an entry. Nothing is locked: the answer may be stale a moment later,
// which is what a check means; only a real scan (PUT) admits.
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { normaliseBarcode } from '../orders/barcodes.ts';
import { doorLocale, readScanTarget } from './internal.ts';
import { scanMessage } from './messages.ts';
import { replay, type ScanResult } from './rules.ts';
import { fixedResult, MAX_BARCODE_LENGTH } from './scanBarcode.ts';

export async function checkBarcode(ctx: Ctx, input: { barcode: string }): Promise<{ result: ScanResult; message: string }> {
  const raw = input.barcode.trim();
  if (raw.length === 0 || raw.length > MAX_BARCODE_LENGTH) throw invalid(`barcode must be 1 to ${MAX_BARCODE_LENGTH} characters`);
  const now = ctx.clock.now();
  const code = normaliseBarcode(raw);
  const { facts, state } = await readScanTarget(ctx.db, code);
  let result = fixedResult(ctx, facts, 'entry', now);
  if (result === null && facts) {
    const step = replay([{ id: 0, direction: 'entry', scannedAt: now, peopleCount: facts.covers }], facts.rule, state ?? undefined);
    result = step.results.get(0)!;
  }
  return { result: result!, message: scanMessage(doorLocale(ctx.config), 'entry', result!) };
}
