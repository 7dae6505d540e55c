import type { Ctx } from '../context.ts';
import { saveEventDate, type EventDateInput } from './eventDateWrite.ts';
import type { View } from './views.ts';

export function createEventDate(ctx: Ctx, input: EventDateInput & { event_id: number }): Promise<View> {
  return saveEventDate(ctx, { ...input, id: undefined });
}
