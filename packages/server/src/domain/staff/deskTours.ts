// The tours the box office can add to its basket on one date: the tours of the user's museums
// that can be booked, each with the start times the availability module still offers that day
// (getTourStartTimes: not past, allowed by the schedule, one more run fits) and its languages.
import { getTourStartTimes } from '../availability/getTourStartTimes.ts';
import { listTours } from '../catalog/listTours.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';

export interface DeskTour {
  id: number;
  title: string;
  priceCents: number;
  pricing: string;
  minPersons: number;
  maxPersons: number;
  languages: Array<{ id: number; name: string }>;
  starts: Date[];
}

/** A desk sells from one screen: more tours than this are not a box-office product list. */
const MAX_TOURS = 100;

export async function deskTours(ctx: Ctx, locale: string, date: string): Promise<DeskTour[]> {
  const scope = ctx.principal.museumIds;
  const page = await listTours(ctx, { per_page: MAX_TOURS, locale, ...(scope.length ? { by_museum_ids: scope } : {}) });
  const out: DeskTour[] = [];
  for (const v of page.items as Array<Record<string, unknown>>) {
    const languages = v.languages as DeskTour['languages'];
    if (!v.bookable || !inMuseumScope(ctx.principal, v.museum_id as number) || languages.length === 0) continue;
    const { starts } = await getTourStartTimes(ctx, { tourId: v.id as number, date });
    const open = starts.filter((s) => s.bookable > 0).map((s) => s.start);
    if (open.length === 0) continue;
    out.push({
      id: v.id as number, title: String(v.title ?? ''), priceCents: v.price_cents as number, pricing: String(v.pricing),
      minPersons: v.min_persons as number, maxPersons: v.max_persons as number, languages, starts: open,
    });
  }
  return out;
}
