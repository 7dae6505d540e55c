import type { Ctx } from '../context.ts';
import { saveTour, type TourInput } from './tourWrite.ts';
import type { View } from './views.ts';

/** Partial update; `language_ids`, when given, replaces the tour's languages. */
export function updateTour(ctx: Ctx, input: TourInput & { id: number }): Promise<View> {
  return saveTour(ctx, input);
}
