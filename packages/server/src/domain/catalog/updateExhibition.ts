import type { Ctx } from '../context.ts';
import { saveExhibition, type ExhibitionInput } from './exhibitionWrite.ts';
import type { View } from './views.ts';

/** Partial update; moving it to another museum needs scope on that museum too. */
export function updateExhibition(ctx: Ctx, input: ExhibitionInput & { id: number }): Promise<View> {
  return saveExhibition(ctx, input);
}
