// Names of the people on personalised tickets (a ticket's `attendees`: 'optional' or 'required',
// go~mus `personalizeable`), asked on the details form, one name and surname per place, and
// sent with the order item as the API takes them (`attributes.attendees`). Whether they are
// enough is the order's rule (domain/orders/items.ts): the form only carries them.
import { field } from './kit.ts';
import type { LineView } from './lines.ts';

export type Attendee = { name: string; surname: string };
/** Per cart line number: the names typed, in place order. */
export type AttendeeForm = Record<number, Attendee[]>;

export const asksNames = (l: Pick<LineView, 'kind' | 'attendees'>) => l.kind === 'ticket' && l.attendees !== 'none';

/** The names typed for every line that asks for them (fields `a_<line>_<place>_name` / `_surname`). */
export function readAttendees(body: unknown, lines: LineView[]): AttendeeForm {
  const out: AttendeeForm = {};
  for (const l of lines.filter(asksNames)) {
    out[l.n] = Array.from({ length: Math.min(l.quantity, 100) }, (_, i) => ({
      name: field(body, `a_${l.n}_${i + 1}_name`, 600),
      surname: field(body, `a_${l.n}_${i + 1}_surname`, 600),
    }));
  }
  return out;
}

/** What the order item carries: every place for a required line, the filled ones for an optional one. */
export function attendeesFor(line: LineView | undefined, form: AttendeeForm): Attendee[] | undefined {
  const typed = line ? form[line.n] : undefined;
  if (!line || !typed) return undefined;
  if (line.attendees === 'required') return typed;
  const filled = typed.filter((a) => a.name || a.surname);
  return filled.length ? filled : undefined;
}
