// POST /scans: one scan at a door (API.md §14, docs/adr/0017-entry-control.md). Every scan is
// stored, refused or not. The barcode row is locked first, so scans of one barcode serialise on
// every node; then the barcode's earlier scans are replayed with the new one in scanned_at order,
// which makes "the earliest scan wins" hold for scans posted late from an offline device too.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { entryStates, scans } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { normaliseBarcode } from '../orders/barcodes.ts';
import { inMuseumScope } from '../principal.ts';
import { parseTimestamp } from '../time.ts';
import { findBarcode, doorLocale, titleIn, type BarcodeFacts, type ScanView } from './internal.ts';
import { scanJson } from './json.ts';
import { scanMessage } from './messages.ts';
import { entryWindow, MAX_CLOCK_SKEW_MS, replay, windowResult, type Direction, type ScanResult } from './rules.ts';

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
/** The id a scan not yet inserted sorts with: after every stored scan of the same instant. */
const NEW_SCAN = Number.MAX_SAFE_INTEGER;

class DeviceScanTaken extends Error {}

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
      const fixed = fixedResult(ctx, facts, direction, scannedAt);
      const inScope = facts !== null && fixed !== 'wrong_museum';
      const people = input.people_count ?? (inScope ? facts.covers : 1);
      if (inScope && people > facts.covers) throw invalid(`people_count must be at most ${facts.covers} for this barcode`);
      const view = await store(tx, ctx, { accountId, deviceScanId, code: code ?? raw, facts: inScope ? facts : null, fixed, direction, people, scannedAt, now, input });
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

interface Stored {
  accountId: number;
  deviceScanId: string | null;
  code: string;
  facts: BarcodeFacts | null;
  fixed: ScanResult | null;
  direction: Direction;
  people: number;
  scannedAt: Date;
  now: Date;
  input: ScanInput;
}

/** Decides and writes the scan (and the barcode's state); returns what the gate is told. */
async function store(tx: Tx, ctx: Ctx, s: Stored): Promise<ScanView> {
  const f = s.facts;
  let result: ScanResult = s.fixed ?? 'valid';
  let entriesUsed = 0;
  let revise: Array<{ id: number; result: ScanResult }> = [];
  let state: ReturnType<typeof replay>['state'] | null = null;
  if (f) {
    const [stored] = await tx.select().from(entryStates).where(eq(entryStates.barcodeId, f.barcodeId));
    entriesUsed = stored?.entriesUsed ?? 0;
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
