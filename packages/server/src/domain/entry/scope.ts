// Which museum an entry read is about, checked against the caller's scope: a museum outside it is
// answered like a missing one (404, docs/api-contract.md §2).
import { findMuseumZone } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { isValidDate, localDateOf } from '../time.ts';

export async function museumInScope(ctx: Ctx, museumId: number): Promise<{ id: number; zone: string }> {
  if (!inMuseumScope(ctx.principal, museumId)) throw notFound('museum');
  const m = await findMuseumZone(ctx.db, museumId);
  if (!m) throw notFound('museum');
  return m;
}

/** A YYYY-MM-DD query date, or today in `zone`. */
export function dateOrToday(ctx: Ctx, date: string | undefined, zone: string): string {
  if (date === undefined) return localDateOf(ctx.clock.now(), zone);
  if (!isValidDate(date)) throw invalid('date must be YYYY-MM-DD');
  return date;
}
