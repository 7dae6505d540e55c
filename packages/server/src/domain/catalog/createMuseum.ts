import type { Ctx } from '../context.ts';
import { saveMuseum, type MuseumInput } from './museumWrite.ts';
import type { View } from './views.ts';

export function createMuseum(ctx: Ctx, input: MuseumInput): Promise<View> {
  return saveMuseum(ctx, { ...input, id: undefined });
}
