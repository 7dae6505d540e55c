// POST /availability and /availability/calendar (docs/octo.md): the slots of a ticket over a range
// of days from ONE read of what is left (domain/availability/getTicketSlots.ts, the go~mus
// calendar's machinery). The calendar lists every day, closed and sold-out days included;
// LIMITED means less than half of the capacity is left.
import type { FastifyRequest } from 'fastify';
import type { TicketRow } from '../../domain/capacity/catalog.ts';
import { getTicketSlots, type DaySlots } from '../../domain/availability/getTicketSlots.ts';
import { daysBetween, isValidDate, isoInZone, localMinutesOf } from '../../domain/time.ts';
import { badRequest, invalidOption, invalidProduct, invalidUnit } from './errors.ts';
import { OPTION_ID, availabilityId, hhmm, isTimeSlot, parseAvailabilityId, ticketIdOf, unitIdOf } from './ids.ts';
import { pricingOf, type View } from './products.ts';
import { textIn } from './language.ts';

export type Slot = DaySlots['slots'][number];

/** UTC without milliseconds, as OCTO validators expect. */
export const utc = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function statusOf(s: Slot): 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'FREESALE' {
  if (s.left <= 0) return 'SOLD_OUT';
  if (s.capacity === null) return 'FREESALE';
  return s.left * 2 < s.capacity ? 'LIMITED' : 'AVAILABLE';
}

const openingHoursOf = (t: TicketRow) => [{ from: hhmm(t.firstEntry), to: hhmm(Math.min(t.lastEntry + (t.entryDuration ?? 0), 1439)) }];

export function availabilityOf(t: TicketRow, date: string, s: Slot, v: View) {
  const slotted = isTimeSlot(t);
  const end = new Date(s.start.getTime() + (slotted ? t.entryDuration! : Math.max(1, t.lastEntry - t.firstEntry)) * 60_000);
  const status = statusOf(s);
  return {
    id: availabilityId(t, date, localMinutesOf(s.start, t.zone)),
    localDateTimeStart: isoInZone(s.start, t.zone),
    localDateTimeEnd: isoInZone(end, t.zone),
    utcCutoffAt: utc(s.start),
    allDay: !slotted,
    available: s.left > 0,
    status,
    vacancies: s.capacity === null ? null : s.left,
    capacity: s.capacity,
    maxUnits: Math.max(0, Math.min(s.left, t.maxPersons)),
    openingHours: slotted ? [] : openingHoursOf(t),
    ...(v.applied.pricing ? { unitPricing: [{ ...pricingOf(t, v), unitId: unitIdOf(t) }] } : {}),
    ...(v.applied.content ? { title: textIn(t.title, v.lang) || '', shortDescription: textIn(t.subTitle, v.lang) || '' } : {}),
  };
}

function calendarDayOf(t: TicketRow, day: DaySlots, v: View) {
  const vacancies = day.slots.reduce((n, s) => n + (s.capacity === null ? 0 : s.left), 0);
  const capacity = day.slots.reduce((n, s) => n + (s.capacity ?? 0), 0);
  const unlimited = day.slots.some((s) => s.capacity === null);
  const open = day.slots.length > 0;
  const left = day.slots.some((s) => s.left > 0);
  const status = !open ? 'CLOSED' : !left ? 'SOLD_OUT' : unlimited ? 'FREESALE' : vacancies * 2 < capacity ? 'LIMITED' : 'AVAILABLE';
  return {
    localDate: day.date,
    available: left,
    status,
    vacancies: !open || unlimited ? null : vacancies,
    capacity: !open || unlimited ? null : capacity,
    openingHours: open && !isTimeSlot(t) ? openingHoursOf(t) : [],
    ...(v.applied.pricing ? { unitPricingFrom: [{ ...pricingOf(t, v), unitId: unitIdOf(t) }] } : {}),
  };
}

type Body = Record<string, unknown>;

/** The product and option a request names, as a bookable ticket: INVALID_* otherwise. */
export async function ticketOfRequest(body: Body, bookable: (id: number) => Promise<TicketRow | null>): Promise<TicketRow> {
  const pid = body.productId;
  const ticketId = ticketIdOf(pid);
  const t = ticketId === null ? null : await bookable(ticketId);
  if (!t) throw invalidProduct(typeof pid === 'string' ? pid : String(pid ?? ''));
  if (body.optionId !== OPTION_ID) throw invalidOption(typeof body.optionId === 'string' ? body.optionId : String(body.optionId ?? ''));
  const units = body.units;
  if (units !== undefined) {
    if (!Array.isArray(units)) throw badRequest('units must be a list');
    for (const u of units as Array<Record<string, unknown>>) {
      if (u?.id !== unitIdOf(t)) throw invalidUnit(typeof u?.id === 'string' ? u.id : '');
    }
  }
  return t;
}

export const dateOrNull = (v: unknown) => (typeof v === 'string' && isValidDate(v) ? v : null);

export function rangeOf(start: unknown, end: unknown): [string, string] {
  const from = dateOrNull(start);
  const to = dateOrNull(end);
  if (!from || !to) throw badRequest('localDateStart and localDateEnd must both be dates (YYYY-MM-DD)');
  const span = daysBetween(from, to);
  if (span < 0) throw badRequest('localDateEnd must not be before localDateStart');
  if (span > 365) throw badRequest('a range spans at most 366 days');
  return [from, to];
}

export async function calendar(req: FastifyRequest, t: TicketRow, body: Body, v: View) {
  const [from, to] = rangeOf(body.localDateStart, body.localDateEnd);
  const r = await getTicketSlots(req.ctx, { ticketId: t.id, from, to });
  return (r?.days ?? []).map((d) => calendarDayOf(t, d, v));
}

/**
 * The days an availability check asks about (OCTO: exactly one of localDate, a date range, or
 * availabilityIds) and, for ids, which ids to keep; null when no id names a date. `dateOfId`
 * reads the date of one id (tickets and offers name their availabilities differently).
 */
export function checkWindow(body: Body, dateOfId: (id: string) => string | null): { from: string; to: string; wanted: Set<string> | null } | null {
  const hasDate = body.localDate !== undefined;
  const hasRange = body.localDateStart !== undefined || body.localDateEnd !== undefined;
  const hasIds = body.availabilityIds !== undefined;
  if (Number(hasDate) + Number(hasRange) + Number(hasIds) !== 1) {
    throw badRequest('give exactly one of localDate, localDateStart with localDateEnd, or availabilityIds');
  }
  if (hasDate) {
    const d = dateOrNull(body.localDate);
    if (!d) throw badRequest('localDate must be a date (YYYY-MM-DD)');
    return { from: d, to: d, wanted: null };
  }
  if (hasRange) {
    const [from, to] = rangeOf(body.localDateStart, body.localDateEnd);
    return { from, to, wanted: null };
  }
  const ids = body.availabilityIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || ids.some((x) => typeof x !== 'string')) {
    throw badRequest('availabilityIds must be a list of 1 to 100 ids');
  }
  const dates = (ids as string[]).map(dateOfId).filter((d): d is string => d !== null).sort();
  if (dates.length === 0) return null;
  const [from, to] = [dates[0]!, dates.at(-1)!];
  if (daysBetween(from, to) > 365) throw badRequest('availabilityIds span at most 366 days');
  return { from, to, wanted: new Set(ids as string[]) };
}

export async function check(req: FastifyRequest, t: TicketRow, body: Body, v: View) {
  const w = checkWindow(body, (id) => parseAvailabilityId(t, id)?.date ?? null);
  if (!w) return [];
  const r = await getTicketSlots(req.ctx, { ticketId: t.id, from: w.from, to: w.to });
  const out = (r?.days ?? []).flatMap((d) => d.slots.map((s) => availabilityOf(t, d.date, s, v)));
  return w.wanted ? out.filter((a) => w.wanted!.has(a.id)) : out;
}

/** The one slot an availability id names, with what is left now; null when there is none. */
export async function slotOf(req: FastifyRequest, t: TicketRow, id: unknown): Promise<{ date: string; time: string; slot: Slot } | null> {
  const p = parseAvailabilityId(t, id);
  if (!p) return null;
  const r = await getTicketSlots(req.ctx, { ticketId: t.id, from: p.date, to: p.date });
  const slot = r?.days[0]?.slots.find((s) => availabilityId(t, p.date, localMinutesOf(s.start, t.zone)) === id);
  return slot ? { ...p, slot } : null;
}

