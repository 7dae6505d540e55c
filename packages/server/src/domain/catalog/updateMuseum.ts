import type { Ctx } from '../context.ts';
import { saveMuseum, type MuseumInput } from './museumWrite.ts';
import type { View } from './views.ts';

/** Partial update of a museum in the caller's scope. */
export function updateMuseum(ctx: Ctx, input: MuseumInput & { id: number }): Promise<View> {
  return saveMuseum(ctx, input);
}
