// OCTO ids of Atrium things (docs/octo.md, "Mapping"). Stable, opaque to resellers, no `+` (they
// travel in JSON, but some clients put them in URLs):
//   product       ticket-<ticket id>
//   option        DEFAULT
//   unit          the unit type in lower case (adult, child …): one unit per ticket
//   availability  <local date>T<HH:MM> for a time slot, <local date> for a day ticket
import type { TicketRow } from '../../domain/capacity/catalog.ts';
import { isValidDate, zonedInstant } from '../../domain/time.ts';

export const OPTION_ID = 'DEFAULT';

export function productId(ticketId: number): string {
  return `ticket-${ticketId}`;
}

/** The ticket id a product id names, or null. */
export function ticketIdOf(id: unknown): number | null {
  if (typeof id !== 'string') return null;
  const m = /^ticket-([1-9]\d{0,9})$/.exec(id);
  return m ? Number(m[1]) : null;
}

export type UnitType = 'ADULT' | 'YOUTH' | 'CHILD' | 'INFANT' | 'FAMILY' | 'SENIOR' | 'STUDENT' | 'MILITARY' | 'OTHER';

// go~mus sells one price per ticket ("Adult", "Reduced", "Child" are separate tickets), so a
// ticket's unit type is read from its title, in German or English.
const TYPE_WORDS: Array<[RegExp, UnitType]> = [
  [/famil/i, 'FAMILY'],
  [/kind|child|kids/i, 'CHILD'],
  [/jugend|youth|teen/i, 'YOUTH'],
  [/student|schüler|pupil/i, 'STUDENT'],
  [/senior|rentner/i, 'SENIOR'],
  [/säugling|infant|baby/i, 'INFANT'],
  [/ermäßigt|reduced|concession|gruppe|group/i, 'OTHER'],
];

export function unitTypeOf(t: Pick<TicketRow, 'title'>): UnitType {
  const text = Object.values(t.title).join(' ');
  return TYPE_WORDS.find(([re]) => re.test(text))?.[1] ?? 'ADULT';
}

export function unitIdOf(t: Pick<TicketRow, 'title'>): string {
  return unitTypeOf(t).toLowerCase();
}

export function isTimeSlot(t: Pick<TicketRow, 'ticketType' | 'entryDuration'>): boolean {
  return t.ticketType === 'time_slot' && t.entryDuration !== null;
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
export { hhmm };

/** The id of the slot starting at local `date` + `minutes` (or of the day, for day tickets). */
export function availabilityId(t: Pick<TicketRow, 'ticketType' | 'entryDuration'>, date: string, minutes: number): string {
  return isTimeSlot(t) ? `${date}T${hhmm(minutes)}` : date;
}

/**
 * The local date, and the order item's `time`, an availability id names for this ticket; null
 * when it is malformed. Whether the slot exists and has room is the booking's own check.
 */
export function parseAvailabilityId(t: TicketRow, id: unknown): { date: string; time: string } | null {
  if (typeof id !== 'string') return null;
  if (!isTimeSlot(t)) return isValidDate(id) ? { date: id, time: id } : null;
  const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)$/.exec(id);
  if (!m || !isValidDate(m[1]!)) return null;
  const at = zonedInstant(m[1]!, Number(m[2]) * 60 + Number(m[3]), t.zone);
  return { date: m[1]!, time: at.toISOString() };
}

/**
 * Local start times of a time-slot ticket's grid ("HH:MM"). A day ticket has its first entry
 * only: the OCTO schema wants at least one time for every option.
 */
export function startTimes(t: Pick<TicketRow, 'ticketType' | 'entryDuration' | 'firstEntry' | 'lastEntry'>): string[] {
  if (!isTimeSlot(t)) return [hhmm(t.firstEntry)];
  const out: string[] = [];
  for (let m = t.firstEntry; m <= t.lastEntry; m += t.entryDuration!) out.push(hhmm(m));
  return out;
}
