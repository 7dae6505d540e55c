// PUT /entry/scans/:id (go~mus entry API): how many people a stored valid entry admitted, e.g. a
// group ticket or tour at the door that turned out smaller than booked. Scan and barcode state
// change in one transaction. The state row is locked first, as entry_scan_store() locks it before
// touching older scans (src/db/sql/entry_scan_store.sql), so the two never wait on each other crosswise. Its version
// is bumped: a scan decided over the state read before this change stores nothing and decides
// again (docs/adr/0027-scans-without-a-held-lock.md). No webhook event: none of the event types
// (docs/webhooks.md) reports a changed scan, and scan.created would announce a second admission.
import {
  bumpEntryState,
  findScanOwner,
  laterValidEntryExists,
  lockEntryState,
  lockScanWithItem,
  setScanPeopleCount,
} from '../../db/repositories/entry.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { coversOf, type ScanView } from './internal.ts';
import { scanInScope } from './getScan.ts';
import { loadScanViews } from './views.ts';

export interface ScanPeopleInput {
  people_count: number;
}

export async function setScanPeople(ctx: Ctx, scanId: number, input: ScanPeopleInput): Promise<ScanView> {
  const people = input.people_count;
  if (!Number.isInteger(people) || people < 1) throw invalid('request is invalid', ['people_count must be >= 1']);
  await transaction(ctx.db, async (tx) => {
    const found = await findScanOwner(tx, scanId);
    if (!found || !scanInScope(ctx, found.museum_id)) throw notFound('scan');
    const barcodeId = found.barcode_id;
    const state = barcodeId === null ? undefined : await lockEntryState(tx, barcodeId);
    // Read again under the state lock: a late offline scan may have revised this verdict meanwhile.
    const s = await lockScanWithItem(tx, scanId);
    if (s!.direction !== 'entry' || s!.result !== 'valid') {
      throw invalid('only a valid entry scan can change its people_count', [`people_count cannot be changed on a${s!.direction === 'exit' ? 'n exit' : ' refused'} scan`]);
    }
    const covers = coversOf(s!.type, s!.quantity);
    if (people > covers) throw invalid('request is invalid', [`people_count must be at most ${covers} for this barcode`]);
    await setScanPeopleCount(tx, scanId, people);
    if (!state || barcodeId === null) return;
    // The people inside are this scan's when it is the barcode's latest valid entry (in the
    // order the rules replay scans: scanned_at, then id) and nobody has left since.
    const follows = state.inside_people > 0 && !(await laterValidEntryExists(tx, scanId));
    await bumpEntryState(tx, barcodeId, ctx.clock.now(), follows ? people : null);
  });
  return (await loadScanViews(ctx.db, ctx, [scanId]))[0]!;
}
