// GET /entry/scans/:id (go~mus entry API): one stored scan as POST /scans answered it. A scanner
// sees only scans of its museums; another museum's scan is answered like a missing one (404).
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import type { ScanView } from './internal.ts';
import { loadScanViews } from './views.ts';

/** Whether a scan's museum is in the caller's scope; a scan of no museum only for an unscoped caller. */
export function scanInScope(ctx: Ctx, museumId: number | null): boolean {
  return museumId === null ? ctx.principal.museumIds.length === 0 : inMuseumScope(ctx.principal, museumId);
}

export async function getScan(ctx: Ctx, scanId: number): Promise<ScanView> {
  const [view] = await loadScanViews(ctx.db, ctx, [scanId]);
  if (!view || !scanInScope(ctx, view.museumId)) throw notFound('scan');
  return view;
}
