import type { Ctx } from '../context.ts';
import { saveExhibition, type ExhibitionInput } from './exhibitionWrite.ts';
import type { View } from './views.ts';

export function createExhibition(ctx: Ctx, input: ExhibitionInput): Promise<View> {
  return saveExhibition(ctx, { ...input, id: undefined });
}
