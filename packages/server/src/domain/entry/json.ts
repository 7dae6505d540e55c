// The JSON form of a scan (docs/api-contract.md §14), shared by the routes and the scan.created event, so the
// webhook carries exactly what POST /scans answered.
import { isoInZone } from '../time.ts';
import type { ScanView } from './internal.ts';

export function scanJson(s: ScanView, instanceZone: string) {
  const zone = s.zone ?? instanceZone;
  return {
    id: s.id,
    barcode: s.barcode,
    direction: s.direction,
    is_valid: s.result === 'valid',
    result: s.result,
    message: s.message,
    people_count: s.peopleCount,
    ticket: s.ticket,
    start_at: s.startAt ? isoInZone(s.startAt, zone) : null,
    order_id: s.orderId,
    museum_id: s.museumId,
    entries_used: s.entriesUsed,
    entries_allowed: s.entriesAllowed,
    scanned_at: isoInZone(s.scannedAt, zone),
    location: s.location,
    device: s.device,
    revised: s.revised,
    used_at: s.usedAt ? isoInZone(s.usedAt, zone) : null,
    entry_opens_at: s.opensAt ? isoInZone(s.opensAt, zone) : null,
  };
}
export type ScanJson = ReturnType<typeof scanJson>;
