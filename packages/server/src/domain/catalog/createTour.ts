import type { Ctx } from '../context.ts';
import { saveTour, type TourInput } from './tourWrite.ts';
import type { View } from './views.ts';

export function createTour(ctx: Ctx, input: TourInput): Promise<View> {
  return saveTour(ctx, { ...input, id: undefined });
}
