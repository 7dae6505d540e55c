// Validation of a new request, with Rails-style full messages (spec 7.2) collected across the
// request, its contact and its items, so a client sees every problem in one answer. The contact
// reuses the customer rules (email format, phone at least 5 characters, lengths), so one
// vocabulary serves customers, contacts and requests.
import type { Tx } from '../../db/client.ts';
import { tourOffersLanguage, tourWithZone } from '../../db/repositories/requests.ts';
import type { RequestContact } from '../../db/schema/requests.ts';
import { isTourStart } from '../capacity/slots.ts';
import { isBookableBy } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { EMPTY_CUSTOMER, nested, parseCustomerFields, validateCustomer } from '../customers/validation.ts';
import { isValidDate, localDateOf, parseTimestamp } from '../time.ts';

export interface RequestItemInput {
  tour_id: number;
  start_time: string;
  language_id: number;
}

export interface ScalarInput {
  notes?: string | null;
  date?: string;
  participants?: number;
  companions?: number;
  items?: RequestItemInput[];
}

const ROLE_MAX = 100;
// PostgreSQL text refuses NUL: it must be a 422 here, never a database error. Single-line fields
// refuse every control character, notes (multi-line) only NUL.
const NUL = /\u0000/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Checks of the request's own fields that need no database. */
export function checkScalars(input: ScalarInput, today: string, errors: string[]): void {
  if (input.date === undefined || input.date.trim() === '') errors.push("Date can't be blank");
  else if (!isValidDate(input.date)) errors.push('Date is not a valid date (YYYY-MM-DD)');
  else if (input.date < today) errors.push("Date can't be in the past");
  if (input.participants === undefined) errors.push("Participants can't be blank");
  else if (input.participants < 1) errors.push('Participants must be greater than or equal to 1');
  if (input.companions !== undefined && input.companions < 0) errors.push('Companions must be greater than or equal to 0');
  if (!input.items || input.items.length === 0) errors.push("Items can't be blank");
  if (input.notes && NUL.test(input.notes)) errors.push('Notes is invalid');
}

/** A free-text reason (decline): multi-line, but never NUL. */
export const isStorableText = (text: string) => !NUL.test(text);

/**
 * A contact person: a name and an email or a phone, each checked like a customer's field.
 * Returns the stored form, or null when no contact was given (or it was invalid: errors are set).
 */
export function checkContact(raw: unknown, errors: string[]): RequestContact | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push('Contact is invalid');
    return null;
  }
  const r = raw as Record<string, unknown>;
  const { given, errors: typeErrors } = parseCustomerFields({ name: r.name, surname: r.surname, email: r.email, phone: r.phone, tel: r.tel });
  const problems = [...typeErrors];
  if (typeErrors.length === 0) {
    // Surname and email are required of customers, not of contacts: their "blank" messages go.
    const fields = { ...EMPTY_CUSTOMER, ...given };
    problems.push(...validateCustomer(fields).filter((m) => m !== "Surname can't be blank" && m !== "Email can't be blank"));
    if (!fields.email && !fields.phone) problems.push("Email or phone can't be blank");
  }
  let role: string | null = null;
  if (r.role !== undefined && r.role !== null) {
    if (typeof r.role !== 'string' || CONTROL.test(r.role)) problems.push('Role is invalid');
    else if ([...r.role.trim()].length > ROLE_MAX) problems.push(`Role is too long (maximum is ${ROLE_MAX} characters)`);
    else role = r.role.trim() || null;
  }
  if (problems.length) {
    errors.push(...nested('Contact', problems));
    return null;
  }
  return { name: given.name!, surname: given.surname ?? null, email: given.email ?? null, phone: given.phone ?? null, role };
}

export interface CheckedItem {
  tourId: number;
  languageId: number;
  startAt: Date;
  museumId: number;
}

/**
 * Each requested tour must be bookable for the caller (else NOT_BOOKABLE, as orders), offered in
 * the language (else LANGUAGE_NOT_AVAILABLE) and start at one of its start times on the requested
 * date, not in the past. Capacity is not checked here: a request holds none until it is accepted.
 */
export async function checkItems(
  tx: Tx,
  ctx: Ctx,
  input: { date?: string; participants?: number; items?: RequestItemInput[] },
  errors: string[],
): Promise<CheckedItem[]> {
  const out: CheckedItem[] = [];
  const now = ctx.clock.now();
  for (const [n, item] of (input.items ?? []).entries()) {
    const at = `items[${n}]`;
    const row = await tourWithZone(tx, item.tour_id);
    if (!row) {
      errors.push(`${at}: tour ${item.tour_id} not found`);
      continue;
    }
    const { t, zone } = row;
    if (!isBookableBy(ctx.principal, t)) throw new DomainError('NOT_BOOKABLE', 'tour not bookable in the current auth context');
    if (!(await tourOffersLanguage(tx, t.id, item.language_id))) throw new DomainError('LANGUAGE_NOT_AVAILABLE', `tour ${t.id} is not offered in language ${item.language_id}`);
    const p = input.participants;
    if (p !== undefined && p >= 1 && p < t.minPersons) errors.push(`${at}: tour ${t.id} needs at least ${t.minPersons} participants`);
    if (p !== undefined && p > t.maxPersons) errors.push(`${at}: tour ${t.id} takes at most ${t.maxPersons} participants`);
    const start = parseTimestamp(item.start_time, zone);
    if (!start) {
      errors.push(`${at} start_time must be an ISO 8601 timestamp`);
      continue;
    }
    if (input.date && isValidDate(input.date) && localDateOf(start, zone) !== input.date) {
      errors.push(`${at} start_time is not on the requested date ${input.date}`);
    } else if (start < now) {
      errors.push(`${at} start_time is in the past`);
    } else if (!isTourStart(t, start, zone)) {
      errors.push(`${at} start_time is not a start time of tour ${t.id}`);
    }
    out.push({ tourId: t.id, languageId: item.language_id, startAt: start, museumId: t.museumId });
  }
  return out;
}
