// GET /closures, GET /closures/:id and DELETE /closures/:id (docs/api-contract.md §13). A closure outside the
// caller's museums is "not found", as every other record (docs/api-contract.md §2).
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import { closures, museums } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { assertStaff } from '../catalog/writeSupport.ts';
import { pageOf, paging, type ListInput, type Page } from '../catalog/internal.ts';
import { inScopeSql } from '../catalog/visibilitySql.ts';
import { inMuseumScope } from '../principal.ts';
import { isValidDate } from '../time.ts';
import { affectedItems, summarise, type Affected } from './affected.ts';
import { closureView, spanOf, type ClosureView } from './closureView.ts';
import { lockSchedule } from './createClosure.ts';

export async function listClosures(
  ctx: Ctx,
  input: ListInput & { by_museum_ids?: number[] | undefined; from?: string | undefined; to?: string | undefined },
): Promise<Page<ClosureView>> {
  assertStaff(ctx);
  for (const k of ['from', 'to'] as const) if (input[k] !== undefined && !isValidDate(input[k]!)) throw invalid(`${k} must be a date (YYYY-MM-DD)`);
  const pg = paging(ctx, input);
  const where = and(
    inScopeSql(ctx.principal, closures.museumId),
    input.by_museum_ids?.length ? inArray(closures.museumId, input.by_museum_ids) : undefined,
    input.from ? gte(closures.endDate, input.from) : undefined,
    input.to ? lte(closures.startDate, input.to) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(closures).where(where).orderBy(asc(closures.startDate), asc(closures.id)).limit(pg.perPage).offset(pg.offset),
    ctx.db.$count(closures, where),
  ]);
  return pageOf(rows.map(closureView), total, pg);
}

/** One closure with the live orders it covers now. */
export async function getClosure(ctx: Ctx, id: number): Promise<{ closure: ClosureView; affected: Affected }> {
  assertStaff(ctx);
  const [r] = await ctx.db
    .select({ c: closures, zone: museums.timeZone })
    .from(closures)
    .innerJoin(museums, eq(museums.id, closures.museumId))
    .where(eq(closures.id, id));
  if (!r || !inMuseumScope(ctx.principal, r.c.museumId)) throw notFound('closure');
  const items = await affectedItems(ctx.db, r.c.museumId, r.zone, spanOf(r.c), ctx.clock.now());
  return { closure: closureView(r.c), affected: summarise(items) };
}

/** Reopens the period; orders cancelled by the closure stay cancelled. */
export async function deleteClosure(ctx: Ctx, id: number): Promise<void> {
  assertStaff(ctx);
  await ctx.db.transaction(async (tx) => {
    const [c] = await tx.select().from(closures).where(eq(closures.id, id));
    if (!c || !inMuseumScope(ctx.principal, c.museumId)) throw notFound('closure');
    await lockSchedule(tx, c.museumId);
    await tx.delete(closures).where(eq(closures.id, id));
  });
}
