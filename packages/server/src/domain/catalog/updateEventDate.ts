import type { Ctx } from '../context.ts';
import { saveEventDate, type EventDateInput } from './eventDateWrite.ts';
import type { View } from './views.ts';

export function updateEventDate(ctx: Ctx, input: EventDateInput & { event_id: number; id: number }): Promise<View> {
  return saveEventDate(ctx, input);
}
