// PUT /entry/scans/:id (go~mus entry API): how many people a stored valid entry admitted, e.g. a
// group ticket or tour at the door that turned out smaller than booked. Scan and barcode state
// change in one transaction. The state row is locked first, as entry_scan_store() locks it before
// touching older scans (src/db/sql/entry_scan_store.sql), so the two never wait on each other
// crosswise. Its version is bumped: a scan decided over the state read before this change stores
// nothing and decides again (docs/adr/0027-scans-without-a-held-lock.md). No webhook event: none of
// the event types (docs/webhooks.md) reports a changed scan, and scan.created would announce a
// second admission.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { coversOf, type ScanView } from './internal.ts';
import { scanInScope } from './getScan.ts';
import { loadScanViews } from './views.ts';

export interface ScanPeopleInput {
  people_count: number;
}

type Row = Record<string, any>;

export async function setScanPeople(ctx: Ctx, scanId: number, input: ScanPeopleInput): Promise<ScanView> {
  const people = input.people_count;
  if (!Number.isInteger(people) || people < 1) throw invalid('request is invalid', ['people_count must be >= 1']);
  await ctx.db.transaction(async (tx) => {
    const [found] = (await tx.execute<Row>(sql`select barcode_id, museum_id from scans where id = ${scanId}`)).rows;
    if (!found || !scanInScope(ctx, found.museum_id)) throw notFound('scan');
    const barcodeId = found.barcode_id === null ? null : Number(found.barcode_id);
    const state = barcodeId === null
      ? undefined
      : (await tx.execute<Row>(sql`select inside_people from entry_states where barcode_id = ${barcodeId} for update`)).rows[0];
    // Read again under the state lock: a late offline scan may have revised this verdict meanwhile.
    const [s] = (await tx.execute<Row>(sql`
      select s.direction, s.result, i.type, i.quantity
        from scans s left join order_items i on i.id = s.order_item_id
       where s.id = ${scanId} for update of s`)).rows;
    if (s!.direction !== 'entry' || s!.result !== 'valid') {
      throw invalid('only a valid entry scan can change its people_count', [`people_count cannot be changed on a${s!.direction === 'exit' ? 'n exit' : ' refused'} scan`]);
    }
    const covers = coversOf(s!.type, s!.quantity);
    if (people > covers) throw invalid('request is invalid', [`people_count must be at most ${covers} for this barcode`]);
    await tx.execute(sql`update scans set people_count = ${people} where id = ${scanId}`);
    if (!state) return;
    // The people inside are this scan's when it is the barcode's latest valid entry (in the
    // order the rules replay scans: scanned_at, then id) and nobody has left since.
    const later = await tx.execute(sql`
      select 1 from scans x join scans s on s.id = ${scanId}
       where x.barcode_id = s.barcode_id and x.direction = 'entry' and x.result = 'valid'
         and (x.scanned_at, x.id) > (s.scanned_at, s.id) limit 1`);
    const follows = Number(state.inside_people) > 0 && later.rows.length === 0;
    await tx.execute(sql`
      update entry_states set version = version + 1, updated_at = ${ctx.clock.now().toISOString()},
             inside_people = ${follows ? sql`${people}` : sql`inside_people`}
       where barcode_id = ${barcodeId}`);
  });
  return (await loadScanViews(ctx.db, ctx, [scanId]))[0]!;
}
