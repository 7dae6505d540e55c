// Form values for the back-office pages (engineer B): a form sends strings; the domain verbs take
// the API's JSON shapes. Empty fields become "not given"; anything malformed is passed on as
// given (or as an impossible value), so the verb's own checks name the problem.
import type { ClosureInput } from '../../../domain/schedules/closureInput.ts';
import { field, intParam } from './kit.ts';

/** Ids from a repeated field (checkboxes, multi-select); a malformed one becomes 0 (not found). */
export function idsOf(body: unknown, name: string): number[] {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  const list = Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v];
  return list.slice(0, 500).map((x) => intParam(x) ?? 0);
}

/** A whole number from a form field, NaN when malformed, undefined when empty. */
export function numberOf(body: unknown, name: string): number | undefined {
  const s = field(body, name, 20);
  if (s === '') return undefined;
  return /^-?\d{1,9}$/.test(s) ? Number(s) : Number.NaN;
}

export function closureInput(body: unknown): ClosureInput {
  const opt = (name: string, max = 20) => field(body, name, max) || undefined;
  const museum = intParam(field(body, 'museum_id', 12));
  return {
    ...(museum ? { museum_id: museum } : {}),
    ...(opt('start_date') ? { start_date: opt('start_date') } : {}),
    ...(opt('end_date') ? { end_date: opt('end_date') } : {}),
    ...(opt('start_time') ? { start_time: opt('start_time') } : {}),
    ...(opt('end_time') ? { end_time: opt('end_time') } : {}),
    ticket_ids: idsOf(body, 'ticket_ids'),
    reason: field(body, 'reason', 600) || null,
    cancel_orders: field(body, 'cancel_orders', 5) === '1',
  };
}
