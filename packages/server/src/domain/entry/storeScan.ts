// Decides a scan that passed input validation, under the barcode lock taken by scanBarcode, and
// writes it with the barcode's new state (docs/adr/0017-entry-control.md): fixed refusals change
// nothing; a scan not older than the barcode's last one continues from the stored state; an older
// one (posted late from an offline device) replays the barcode's scans so the earliest wins.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { entryStates, scans } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { doorLocale, titleIn, type BarcodeFacts, type ScanView } from './internal.ts';
import { scanMessage } from './messages.ts';
import { replay, type Direction, type ScanResult } from './rules.ts';
import type { ScanInput } from './scanBarcode.ts';

/** The id a scan not yet inserted sorts with: after every stored scan of the same instant. */
const NEW_SCAN = Number.MAX_SAFE_INTEGER;

/** The device_scan_id was stored by a concurrent request first. */
export class DeviceScanTaken extends Error {}

export interface Stored {
  accountId: number;
  deviceScanId: string | null;
  code: string;
  facts: BarcodeFacts | null;
  fixed: ScanResult | null;
  direction: Direction;
  people: number;
  scannedAt: Date;
  /** Scanned now, not posted later with its own scanned_at. */
  online: boolean;
  now: Date;
  input: ScanInput;
}

/** Decides and writes the scan (and the barcode's state); returns what the gate is told. */
export async function storeScan(tx: Tx, ctx: Ctx, s: Stored): Promise<ScanView> {
  const f = s.facts;
  let result: ScanResult = s.fixed ?? 'valid';
  let entriesUsed = 0;
  let revise: Array<{ id: number; result: ScanResult }> = [];
  let state: ReturnType<typeof replay>['state'] | null = null;
  if (f) {
    const [stored] = await tx.select().from(entryStates).where(eq(entryStates.barcodeId, f.barcodeId));
    entriesUsed = stored?.entriesUsed ?? 0;
    // Clocks of several nodes may differ by a little: an online scan never goes before the
    // barcode's last scan, so what a gate is told online is never revised by another online scan.
    if (stored && s.online && s.scannedAt < stored.lastScanAt) s = { ...s, scannedAt: stored.lastScanAt };
    const next = { id: NEW_SCAN, direction: s.direction, scannedAt: s.scannedAt, peopleCount: s.people };
    if (s.fixed !== null) {
      // Refused before the rules: nothing changes.
    } else if (!stored || s.scannedAt >= stored.lastScanAt) {
      // The usual case: later than every scan so far, so it continues from the stored state.
      const step = replay([next], f.rule, stored ?? undefined);
      result = step.results.get(NEW_SCAN)!;
      state = step.state;
    } else {
      // An offline scan older than scans already stored: the barcode's scans are replayed in
      // the order they happened, so the earliest wins, and verdicts that change are revised.
      const prior = await tx
        .select({ id: scans.id, direction: scans.direction, scannedAt: scans.scannedAt, peopleCount: scans.peopleCount, result: scans.result })
        .from(scans)
        .where(and(eq(scans.barcodeId, f.barcodeId), inArray(scans.result, ['valid', 'already_used'])));
      const all = replay([...prior.map((p) => ({ ...p, direction: p.direction as Direction })), next], f.rule);
      result = all.results.get(NEW_SCAN)!;
      revise = prior.filter((p) => all.results.get(p.id) !== p.result).map((p) => ({ id: p.id, result: all.results.get(p.id)! }));
      state = all.state;
    }
    if (state) entriesUsed = state.entriesUsed;
  }
  const locale = doorLocale(ctx.config);
  const message = scanMessage(locale, s.direction, result);
  const museumId = f?.museumId ?? (ctx.principal.museumIds.length === 1 ? ctx.principal.museumIds[0]! : null);
  const [row] = await tx
    .insert(scans)
    .values({
      accountId: s.accountId,
      deviceScanId: s.deviceScanId,
      barcode: s.code,
      barcodeId: f?.barcodeId ?? null,
      museumId,
      orderId: f?.orderId ?? null,
      orderItemId: f?.itemId ?? null,
      direction: s.direction,
      location: s.input.location ?? null,
      peopleCount: s.people,
      result,
      gateResult: result,
      message,
      entriesUsed,
      entriesAllowed: f?.rule.entriesAllowed ?? 0,
      scannedAt: s.scannedAt,
      receivedAt: s.now,
    })
    .onConflictDoNothing({ target: [scans.accountId, scans.deviceScanId], where: sql`${scans.deviceScanId} is not null` })
    .returning({ id: scans.id });
  if (!row) throw new DeviceScanTaken();
  for (const r of revise) {
    await tx.update(scans).set({ result: r.result, revisedAt: s.now }).where(eq(scans.id, r.id));
  }
  if (f && state) {
    const values = { entriesUsed: state.entriesUsed, insidePeople: state.insidePeople, lastEntryAt: state.lastEntryAt, lastScanAt: sql`greatest(${entryStates.lastScanAt}, ${s.scannedAt.toISOString()}::timestamptz)`, updatedAt: s.now };
    await tx
      .insert(entryStates)
      .values({ barcodeId: f.barcodeId, orderItemId: f.itemId, museumId: f.museumId, ...values, lastScanAt: s.scannedAt })
      .onConflictDoUpdate({ target: entryStates.barcodeId, set: values });
  }
  const p = ctx.principal;
  return {
    id: row.id, barcode: s.code, direction: s.direction, result, message, peopleCount: s.people,
    ticket: f ? { id: f.product.id, title: titleIn(f.product.title, locale) } : null,
    startAt: f?.item.startAt ?? null, zone: f?.item.zone ?? null, orderId: f?.orderId ?? null, museumId,
    entriesUsed, entriesAllowed: f?.rule.entriesAllowed ?? 0, scannedAt: s.scannedAt, location: s.input.location ?? null,
    device: p.kind === 'account' ? { id: p.accountId, name: p.accountName } : null, revised: false,
  };
}
