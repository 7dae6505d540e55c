// Decides a scan that passed input validation against the barcode's state as read, and stores it
// with entry_scan_store() (src/db/sql/entry_scan_store.sql; batched with concurrent scans,
// db/repositories/entryScan.ts): the scan, the barcode's new state, revised verdicts and the
// scan.created event, or nothing. The state is written only over the state that was read
// (docs/adr/0027-scans-without-a-held-lock.md); when another scan of the barcode got in between,
// nothing is written and the caller reads and decides again. A scan not older than the barcode's last one continues from the stored state; an
// older one (posted late from an offline device) replays the barcode's scans so the earliest wins.
import type { DbOrTx } from '../../db/client.ts';
import { admittingScansOf } from '../../db/repositories/entry.ts';
import { storeScanPayload } from '../../db/repositories/entryScan.ts';
import type { Ctx } from '../context.ts';
import { newEventId } from '../events/record.ts';
import { doorLocale, titleIn, type BarcodeFacts, type ScanView, type StoredState } from './internal.ts';
import { scanJson, type ScanJson } from './json.ts';
import { scanMessage } from './messages.ts';
import { entryWindow, replay, type BarcodeState, type Direction, type ScanResult } from './rules.ts';
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
  /** The barcode's state as read with the facts (null: never scanned statefully). */
  state: StoredState | null;
  fixed: ScanResult | null;
  direction: Direction;
  people: number;
  scannedAt: Date;
  /** Scanned now, not posted later with its own scanned_at. */
  online: boolean;
  now: Date;
  input: ScanInput;
  /** false only in the entry race's control run (ctx.testing.disableEntryLocks). */
  check: boolean;
}

interface Decision {
  result: ScanResult;
  entriesUsed: number;
  state: BarcodeState | null;
  revise: Array<{ id: number; result: ScanResult }>;
  scannedAt: Date;
  /** Decided by replaying the barcode's stored scans (a scan older than the last one). */
  replayed: boolean;
}

/** The verdict from the state as read (and, for a late offline scan, the barcode's other scans). */
async function decide(db: DbOrTx, s: Stored): Promise<Decision> {
  const f = s.facts;
  const stored = s.state;
  const out: Decision = { result: s.fixed ?? 'valid', entriesUsed: stored?.entriesUsed ?? 0, state: null, revise: [], scannedAt: s.scannedAt, replayed: false };
  if (!f || s.fixed !== null) return out;
  // Clocks of several nodes may differ by a little: an online scan never goes before the
  // barcode's last scan, so what a gate is told online is never revised by another online scan.
  if (stored && s.online && s.scannedAt < stored.lastScanAt) out.scannedAt = stored.lastScanAt;
  const next = { id: NEW_SCAN, direction: s.direction, scannedAt: out.scannedAt, peopleCount: s.people };
  if (!stored || out.scannedAt >= stored.lastScanAt) {
    // The usual case: later than every scan so far, so it continues from the stored state.
    const step = replay([next], f.rule, stored ?? undefined);
    out.result = step.results.get(NEW_SCAN)!;
    out.state = step.state;
  } else {
    // An offline scan older than scans already stored: the barcode's scans are replayed in the
    // order they happened, so the earliest wins, and verdicts that change are revised. A scan
    // stored after the state was read changed its version, so this decision is then not stored.
    const prior = await admittingScansOf(db, f.barcodeId);
    const all = replay([...prior.map((p) => ({ ...p, direction: p.direction as Direction })), next], f.rule);
    out.result = all.results.get(NEW_SCAN)!;
    out.revise = prior.filter((p) => all.results.get(p.id) !== p.result).map((p) => ({ id: p.id, result: all.results.get(p.id)! }));
    out.state = all.state;
    out.replayed = true;
  }
  out.entriesUsed = out.state.entriesUsed;
  return out;
}

/** A stored scan: what the gate is told, and its JSON (the answer and the scan.created event's). */
export interface StoredScan {
  view: ScanView;
  json: ScanJson;
}

/** Decides and writes the scan; null when the state moved on (decide again). */
export async function storeScan(db: DbOrTx, ctx: Ctx, s: Stored): Promise<StoredScan | null> {
  const f = s.facts;
  const d = await decide(db, s);
  const locale = doorLocale(ctx.config);
  const zone = f?.item.zone ?? ctx.config.zone;
  // What the refusal needs: the last admitted entry (the state before a refused scan keeps it) and
  // the window's opening for a ticket scanned too early.
  const usedAt = d.result === 'already_used' && s.direction === 'entry' ? (d.state?.lastEntryAt ?? s.state?.lastEntryAt ?? null) : null;
  const opensAt = d.result === 'not_yet_valid' && f ? entryWindow(f.item, f.rule.earlyMinutes).opens : null;
  const message = scanMessage(locale, s.direction, d.result, { usedAt, opensAt, scannedAt: d.scannedAt, zone });
  const museumId = f?.museumId ?? (ctx.principal.museumIds.length === 1 ? ctx.principal.museumIds[0]! : null);
  const p = ctx.principal;
  const view: ScanView = {
    id: 0, barcode: s.code, direction: s.direction, result: d.result, message, peopleCount: s.people,
    ticket: f ? { id: f.product.id, title: titleIn(f.product.title, locale) } : null,
    startAt: f?.item.startAt ?? null, zone: f?.item.zone ?? null, orderId: f?.orderId ?? null, museumId,
    entriesUsed: d.entriesUsed, entriesAllowed: f?.rule.entriesAllowed ?? 0, scannedAt: d.scannedAt, location: s.input.location ?? null,
    device: p.kind === 'account' ? { id: p.accountId, name: p.accountName } : null, revised: false, usedAt, opensAt,
  };
  const state = f && d.state
    ? { barcode_id: f.barcodeId, order_item_id: f.itemId, museum_id: f.museumId, entries_used: d.state.entriesUsed, inside_people: d.state.insidePeople, last_entry_at: d.state.lastEntryAt, last_scan_at: d.scannedAt, updated_at: s.now }
    : null;
  const json = scanJson(view, ctx.config.zone);
  const payload = {
    scan: {
      account_id: s.accountId, device_scan_id: s.deviceScanId, barcode: s.code, barcode_id: f?.barcodeId ?? null, museum_id: museumId,
      order_id: f?.orderId ?? null, order_item_id: f?.itemId ?? null, direction: s.direction, location: s.input.location ?? null,
      people_count: s.people, result: d.result, gate_result: d.result, message, entries_used: d.entriesUsed,
      entries_allowed: f?.rule.entriesAllowed ?? 0, scanned_at: d.scannedAt, received_at: s.now,
    },
    state,
    expected: s.state?.version ?? null,
    // An online scan later than every stored one decides from the state's counters alone; it
    // holds while they are unchanged (a rush of refusals of one barcode then stores in one round).
    // A scan posted late is ordered among the barcode's scans by time: it needs the exact version.
    same: s.state && s.online && !d.replayed ? { entries_used: s.state.entriesUsed, inside_people: s.state.insidePeople, last_entry_at: s.state.lastEntryAt } : null,
    check: s.check,
    revise: d.revise,
    // The outbox row (docs/adr/0018-outbox-webhooks-mail.md) commits with the scan; its `scan.id` is
    // filled in by the function once the scan has its id, so webhooks carry what the gate was told.
    event: {
      id: newEventId(),
      account_id: f ? f.orderAccountId : null,
      museum_ids: museumId ? [museumId] : [],
      data: { scan: json },
      created_at: s.now,
    },
  };
  const id = await storeScanPayload(db, JSON.stringify(payload));
  if (id === -1) throw new DeviceScanTaken();
  return id === 0 ? null : { view: { ...view, id }, json: { ...json, id } };
}
