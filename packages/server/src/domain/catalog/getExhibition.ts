import type { Ctx } from '../context.ts';
import { resolveLocale } from './internal.ts';
import { findExhibition } from './lookups.ts';
import { exhibitionView, type View } from './views.ts';

export async function getExhibition(ctx: Ctx, input: { id: number; locale?: string | string[] | undefined }): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  return exhibitionView(await findExhibition(ctx, input.id), L);
}
