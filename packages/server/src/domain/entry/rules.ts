// The entry rules as pure functions (docs/adr/0017-entry-control.md): when a barcode's door is
// open, and how the scans of one barcode decide one another. No database, no clock: the scan
// verb feeds them rows and instants, the tests feed them lists.
import { localDateOf, startOfLocalDay, addDays } from '../time.ts';

export const RESULTS = ['valid', 'already_used', 'not_entered', 'not_yet_valid', 'expired', 'cancelled', 'wrong_museum', 'unknown'] as const;
export type ScanResult = (typeof RESULTS)[number];
export type Direction = 'entry' | 'exit';

/** Instance defaults (docs/api-contract.md §14 as docs/adr/0017-entry-control.md records them). */
export const DEFAULT_EARLY_MINUTES = 15;
export const DEFAULT_ENTRIES_ALLOWED = 1;
/** How far a device clock may run ahead of the server before its scanned_at is refused. */
export const MAX_CLOCK_SKEW_MS = 2 * 60_000;

export interface EntryRule {
  entriesAllowed: number;
  reentry: boolean;
  earlyMinutes: number;
}

export interface AdmissionItem {
  type: 'Ticket' | 'Event' | 'Tour';
  startAt: Date;
  zone: string;
  /** time_slot tickets: the slot's length; events and tours: their duration; day tickets: null. */
  durationMinutes: number | null;
  /** Tickets: minutes after local midnight of the last entry. */
  lastEntry: number | null;
}

/**
 * The entry window: from `earlyMinutes` before the slot until the slot's end, but never after
 * the ticket's last entry of that day. A day ticket (no slot length) is valid on its museum-local
 * date, from midnight to midnight.
 */
export function entryWindow(item: AdmissionItem, earlyMinutes: number): { opens: Date; closes: Date } {
  const date = localDateOf(item.startAt, item.zone);
  if (item.durationMinutes === null) {
    return { opens: startOfLocalDay(date, item.zone), closes: startOfLocalDay(addDays(date, 1), item.zone) };
  }
  const opens = new Date(item.startAt.getTime() - earlyMinutes * 60_000);
  let closes = new Date(item.startAt.getTime() + item.durationMinutes * 60_000);
  if (item.lastEntry !== null) {
    const lastEntry = new Date(startOfLocalDay(date, item.zone).getTime() + item.lastEntry * 60_000);
    if (lastEntry > item.startAt && lastEntry < closes) closes = lastEntry;
  }
  return { opens, closes };
}

/** The window verdict for an entry made at `at`; the window is closed at its end instant. */
export function windowResult(at: Date, w: { opens: Date; closes: Date }): ScanResult | null {
  if (at < w.opens) return 'not_yet_valid';
  if (at >= w.closes) return 'expired';
  return null;
}

/** A scan of one barcode that passed the fixed checks: only these decide one another. */
export interface StatefulScan {
  id: number;
  direction: Direction;
  scannedAt: Date;
  peopleCount: number;
}

export interface BarcodeState {
  entriesUsed: number;
  insidePeople: number;
  lastEntryAt: Date | null;
}

/**
 * Replays a barcode's scans in the order they happened (scanned_at, then id): an entry is valid
 * while entries are left, or, with re-entry, when the holder has left again (a re-entry does not
 * use an entry); an exit is valid when somebody is inside. So of two scans of a single-entry
 * barcode the earlier one is `valid` and the later `already_used`, whichever arrived first.
 * An exit of a barcode that was never admitted is `not_entered`: nobody used it, so telling the
 * gate "already used" would send staff looking for a visit that did not happen.
 * `from` continues from a stored state (a scan later than every stored one: the usual case).
 */
export function replay(
  scans: StatefulScan[],
  rule: EntryRule,
  from: BarcodeState = { entriesUsed: 0, insidePeople: 0, lastEntryAt: null },
): { results: Map<number, ScanResult>; state: BarcodeState } {
  const ordered = [...scans].sort((a, b) => a.scannedAt.getTime() - b.scannedAt.getTime() || a.id - b.id);
  const results = new Map<number, ScanResult>();
  const state: BarcodeState = { ...from };
  for (const s of ordered) {
    let ok: boolean;
    if (s.direction === 'exit') {
      ok = state.insidePeople > 0;
      if (ok) state.insidePeople = 0;
    } else {
      const fresh = state.entriesUsed < rule.entriesAllowed && (state.insidePeople === 0 || rule.entriesAllowed > 1);
      const back = rule.reentry && state.entriesUsed > 0 && state.insidePeople === 0;
      ok = fresh || back;
      if (fresh) state.entriesUsed += 1;
      if (ok) {
        state.insidePeople = s.peopleCount;
        state.lastEntryAt = s.scannedAt;
      }
    }
    const refused: ScanResult = s.direction === 'exit' && state.entriesUsed === 0 ? 'not_entered' : 'already_used';
    results.set(s.id, ok ? 'valid' : refused);
  }
  return { results, state };
}
