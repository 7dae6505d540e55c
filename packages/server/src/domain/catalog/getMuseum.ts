import type { Ctx } from '../context.ts';
import { resolveLocale } from './internal.ts';
import { findMuseum } from './lookups.ts';
import { museumView, type View } from './views.ts';

export async function getMuseum(ctx: Ctx, input: { id: number; locale?: string | string[] | undefined }): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  return museumView(ctx.principal, await findMuseum(ctx, input.id), L);
}
