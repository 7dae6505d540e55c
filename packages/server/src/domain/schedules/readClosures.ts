// GET /closures, GET /closures/:id and DELETE /closures/:id (docs/api-contract.md §13). A closure outside the
// caller's museums is "not found", as every other record (docs/api-contract.md §2).
import { closureById, closureInZone, closuresPage, deleteClosureById, lockSchedule } from '../../db/repositories/schedules/closures.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { assertStaff } from '../catalog/writeSupport.ts';
import { pageOf, paging, type ListInput, type Page } from '../catalog/internal.ts';
import { windowOf } from '../catalog/fragments.ts';
import { inMuseumScope } from '../principal.ts';
import { isValidDate } from '../time.ts';
import { affectedItems, summarise, type Affected } from './affected.ts';
import { closureView, spanOf, type ClosureView } from './closureView.ts';

export async function listClosures(
  ctx: Ctx,
  input: ListInput & { by_museum_ids?: number[] | undefined; from?: string | undefined; to?: string | undefined },
): Promise<Page<ClosureView>> {
  assertStaff(ctx);
  for (const k of ['from', 'to'] as const) if (input[k] !== undefined && !isValidDate(input[k]!)) throw invalid(`${k} must be a date (YYYY-MM-DD)`);
  const pg = paging(ctx, input);
  const filter = { viewer: ctx.principal, museumIds: input.by_museum_ids, from: input.from, to: input.to };
  const { rows, total } = await closuresPage(ctx.db, filter, windowOf(pg));
  return pageOf(rows.map(closureView), total, pg);
}

/** One closure with the live orders it covers now. */
export async function getClosure(ctx: Ctx, id: number): Promise<{ closure: ClosureView; affected: Affected }> {
  assertStaff(ctx);
  const r = await closureInZone(ctx.db, id);
  if (!r || !inMuseumScope(ctx.principal, r.c.museumId)) throw notFound('closure');
  const items = await affectedItems(ctx.db, r.c.museumId, r.zone, spanOf(r.c), ctx.clock.now());
  return { closure: closureView(r.c), affected: summarise(items) };
}

/** Reopens the period; orders cancelled by the closure stay cancelled. */
export async function deleteClosure(ctx: Ctx, id: number): Promise<void> {
  assertStaff(ctx);
  await transaction(ctx.db, async (tx) => {
    const c = await closureById(tx, id);
    if (!c || !inMuseumScope(ctx.principal, c.museumId)) throw notFound('closure');
    await lockSchedule(tx, c.museumId);
    await deleteClosureById(tx, id);
  });
}
