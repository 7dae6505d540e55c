import type { Ctx } from '../context.ts';
import { saveEvent, type EventInput } from './eventWrite.ts';
import type { View } from './views.ts';

export function updateEvent(ctx: Ctx, input: EventInput & { id: number }): Promise<View> {
  return saveEvent(ctx, input);
}
