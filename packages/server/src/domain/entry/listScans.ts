// GET /scans: the scan history within the caller's museums, newest verdicts (a revised scan shows
// its current result), filtered by museum, museum-local date, barcode and device.
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { normaliseBarcode } from '../orders/barcodes.ts';
import { addDays, startOfLocalDay } from '../time.ts';
import type { ScanView } from './internal.ts';
import { dateOrToday, museumInScope } from './scope.ts';
import { queryScanViews } from './views.ts';

export interface ListScansInput {
  museum_id?: number;
  date?: string;
  barcode?: string;
  device?: string;
  page?: number;
  per_page?: number;
}

export async function listScans(ctx: Ctx, input: ListScansInput): Promise<{ scans: ScanView[]; total: number; page: number; perPage: number }> {
  const where: SQL[] = [];
  const scope = ctx.principal.museumIds;
  if (scope.length > 0) where.push(sql`s.museum_id = any(${sql.raw(`'{${scope.map(Number).join(',')}}'::integer[]`)})`);
  let zone = ctx.config.zone;
  if (input.museum_id !== undefined) {
    zone = (await museumInScope(ctx, input.museum_id)).zone;
    where.push(sql`s.museum_id = ${input.museum_id}`);
  }
  if (input.date !== undefined) {
    const date = dateOrToday(ctx, input.date, zone);
    where.push(sql`s.scanned_at >= ${startOfLocalDay(date, zone).toISOString()} and s.scanned_at < ${startOfLocalDay(addDays(date, 1), zone).toISOString()}`);
  }
  if (input.barcode !== undefined) where.push(sql`s.barcode = ${normaliseBarcode(input.barcode) ?? input.barcode.trim()}`);
  if (input.device !== undefined) {
    where.push(/^\d{1,9}$/.test(input.device) ? sql`s.account_id = ${Number(input.device)}` : sql`a.name = ${input.device}`);
  }
  const cond = where.length ? sql.join(where, sql` and `) : sql`true`;
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const count = await ctx.db.execute<{ n: string }>(sql`select count(*) as n from scans s join accounts a on a.id = s.account_id where ${cond}`);
  const scans = await queryScanViews(ctx.db, ctx, cond, perPage, (page - 1) * perPage);
  return { scans, total: Number(count.rows[0]!.n), page, perPage };
}
