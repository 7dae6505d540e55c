import { eventWithRelated } from '../../db/repositories/catalog/records.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { resolveLocale } from './internal.ts';
import { eventView, type View } from './views.ts';
import { isVisibleTo } from './visibility.ts';
import { categoryRef } from './categories.ts';
import { upcomingStartTimes } from './upcomingStartTimes.ts';

export async function getEvent(ctx: Ctx, input: { id: number; locale?: string | string[] | undefined }): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  // The row and its languages in one statement; an invisible event is "not found" like a missing
  // one (lookups.ts), by the one visibility rule (visibility.ts).
  const r = await eventWithRelated(ctx.db, input.id);
  if (!r || !isVisibleTo(ctx.principal, r)) throw notFound('event');
  const upcoming = await upcomingStartTimes(ctx, [r.id]);
  return { ...eventView(ctx.principal, r, L, { languages: r.languages, category: categoryRef(r), location: r.museumLocation }), upcoming_bookings_start_times: upcoming.get(r.id)! };
}
