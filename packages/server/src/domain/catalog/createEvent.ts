import type { Ctx } from '../context.ts';
import { saveEvent, type EventInput } from './eventWrite.ts';
import type { View } from './views.ts';

export function createEvent(ctx: Ctx, input: EventInput): Promise<View> {
  return saveEvent(ctx, { ...input, id: undefined });
}
