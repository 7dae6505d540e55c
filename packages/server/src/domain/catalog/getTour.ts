import type { Ctx } from '../context.ts';
import { resolveLocale } from './internal.ts';
import { languagesByTour } from './loaders.ts';
import { findTour } from './lookups.ts';
import { tourView, type View } from './views.ts';

export async function getTour(ctx: Ctx, input: { id: number; locale?: string | string[] | undefined }): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  const t = await findTour(ctx, input.id);
  const langs = await languagesByTour(ctx.db, [t.id]);
  return tourView(ctx.principal, t, L, { languages: langs.get(t.id) ?? [] });
}
