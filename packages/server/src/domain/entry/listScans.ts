// GET /scans: the scan history within the caller's museums, newest verdicts (a revised scan shows
// its current result), filtered by museum, museum-local date, barcode and device.
import type { ScanFilter } from '../../db/repositories/entry.ts';
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
  const filter: ScanFilter = {};
  const scope = ctx.principal.museumIds;
  if (scope.length > 0) filter.museumIds = scope;
  let zone = ctx.config.zone;
  if (input.museum_id !== undefined) {
    zone = (await museumInScope(ctx, input.museum_id)).zone;
    filter.museumId = input.museum_id;
  }
  if (input.date !== undefined) {
    const date = dateOrToday(ctx, input.date, zone);
    filter.from = startOfLocalDay(date, zone);
    filter.to = startOfLocalDay(addDays(date, 1), zone);
  }
  if (input.barcode !== undefined) filter.barcode = normaliseBarcode(input.barcode) ?? input.barcode.trim();
  if (input.device !== undefined) {
    if (/^\d{1,9}$/.test(input.device)) filter.deviceId = Number(input.device);
    else filter.deviceName = input.device;
  }
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { scans, total } = await queryScanViews(ctx.db, ctx, filter, perPage, (page - 1) * perPage);
  return { scans, total, page, perPage };
}
