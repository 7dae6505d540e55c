import { tourWithRelated } from '../../db/repositories/catalog/records.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { resolveLocale } from './internal.ts';
import { tourView, type View } from './views.ts';
import { isVisibleTo } from './visibility.ts';
import { categoryRef } from './categories.ts';

export async function getTour(ctx: Ctx, input: { id: number; locale?: string | string[] | undefined }): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  // The row and its languages in one statement; an invisible tour is "not found" like a missing
  // one (lookups.ts), by the one visibility rule (visibility.ts).
  const r = await tourWithRelated(ctx.db, input.id);
  if (!r || !isVisibleTo(ctx.principal, r)) throw notFound('tour');
  return tourView(ctx.principal, r, L, { languages: r.languages, category: categoryRef(r), location: r.museumLocation });
}
