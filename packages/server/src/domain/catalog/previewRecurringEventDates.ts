// What a recurrence would create, without writing anything: the console shows the next dates
// (and the ones skipped, with the reason) before staff create them. Same checks and plan as the
// verb that writes (createRecurringEventDates.ts planRecurrence).
import type { Ctx } from '../context.ts';
import { planRecurrence, type RecurringDatesInput } from './createRecurringEventDates.ts';
import { assertStaff } from './writeSupport.ts';

export interface RecurrencePreview {
  zone: string;
  /** How many dates would be created, and the first `limit` of them. */
  total: number;
  next: Date[];
  skipped: Array<{ start: Date; reason: string }>;
}

export async function previewRecurringEventDates(ctx: Ctx, input: RecurringDatesInput, limit = 10): Promise<RecurrencePreview> {
  assertStaff(ctx);
  const { found, starts, skipped } = await planRecurrence(ctx, ctx.db, input, false);
  return { zone: found.zone, total: starts.length, next: starts.slice(0, limit), skipped: skipped.slice(0, limit) };
}
