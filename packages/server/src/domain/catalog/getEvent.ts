import type { Ctx } from '../context.ts';
import { resolveLocale } from './internal.ts';
import { languagesByEvent } from './loaders.ts';
import { findEvent } from './lookups.ts';
import { eventView, type View } from './views.ts';

export async function getEvent(ctx: Ctx, input: { id: number; locale?: string | string[] | undefined }): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  const e = await findEvent(ctx, input.id);
  const langs = await languagesByEvent(ctx.db, [e.id]);
  return eventView(ctx.principal, e, L, { languages: langs.get(e.id) ?? [] });
}
