// Events and tours over the OCTO product and availability routes (docs/octo.md): the product,
// option and units a request names (INVALID_* otherwise), and the starts of a range of days from
// the domain's offer reads (domain/octo/offers.ts).
import type { FastifyRequest } from 'fastify';
import { bookableEvent, bookableTour, eventStarts, listBookableOffers, tourStarts, type OfferStart } from '../../domain/octo/offers.ts';
import { addDays, daysBetween, localDateOf } from '../../domain/time.ts';
import { checkWindow, dateOrNull, rangeOf } from './availability.ts';
import { badRequest, invalidOption, invalidProduct, invalidUnit } from './errors.ts';
import { hhmm, unitIdOf } from './ids.ts';
import type { OctoBooking } from '../../domain/octo/internal.ts';
import type { BookingShape } from './booking-json.ts';
import { languageOfOption, perBooking, offerAvailabilityOf, offerCalendarDayOf, offerIdOf, offerProductOf, startIdOf, type OfferRow } from './offers.ts';
import { pricingOf, type View } from './products.ts';

type Body = Record<string, unknown>;

/** The event or tour a product id names, if the caller may book it; null otherwise. */
export async function offerOf(req: FastifyRequest, productId: unknown): Promise<OfferRow | null> {
  const ref = offerIdOf(productId);
  if (!ref) return null;
  if (ref.kind === 'Event') {
    const e = await bookableEvent(req.ctx, ref.id);
    return e ? { ...e, kind: 'Event' } : null;
  }
  const t = await bookableTour(req.ctx, ref.id);
  return t ? { ...t, kind: 'Tour' } : null;
}

/** The starts of the offer on local days [from, to]. */
export function startsOf(req: FastifyRequest, o: OfferRow, from: string, to: string): Promise<OfferStart[]> {
  return o.kind === 'Event' ? eventStarts(req.ctx, o, from, to) : tourStarts(req.ctx, o, from, to);
}

/** Local start times an offer's option lists: a tour's grid, an event's coming dates' times. */
async function timesOf(req: FastifyRequest, o: OfferRow): Promise<{ times: string[]; durations: number[] }> {
  if (o.kind === 'Tour') {
    const times: string[] = [];
    for (let m = o.windowStart; m <= o.windowEnd; m += Math.max(1, o.step)) times.push(hhmm(m));
    return { times, durations: [o.duration] };
  }
  const today = localDateOf(req.ctx.clock.now(), o.zone);
  const starts = await startsOf(req, o, today, addDays(today, 365));
  return {
    times: [...new Set(starts.map((s) => startIdOf(o, s).slice(11)))].sort(),
    durations: starts.map((s) => Math.round((s.end.getTime() - s.start.getTime()) / 60_000)),
  };
}

/** The product of an offer; null for an event without any coming date (nothing to sell). */
export async function offerProduct(req: FastifyRequest, o: OfferRow, v: View) {
  const { times, durations } = await timesOf(req, o);
  return times.length ? offerProductOf(o, times, durations, v) : null;
}

export async function offerProducts(req: FastifyRequest, v: View) {
  const { events, tours } = await listBookableOffers(req.ctx);
  const rows: OfferRow[] = [...events.map((e) => ({ ...e, kind: 'Event' as const })), ...tours.map((t) => ({ ...t, kind: 'Tour' as const }))];
  const out = [];
  for (const o of rows) {
    const p = await offerProduct(req, o, v);
    if (p) out.push(p);
  }
  return out;
}

/** The offer, and the language of the option, a request names: INVALID_* otherwise. */
export async function offerOfRequest(req: FastifyRequest, body: Body): Promise<{ o: OfferRow; languageId: number | undefined }> {
  const pid = body.productId;
  const o = await offerOf(req, pid);
  if (!o) throw invalidProduct(typeof pid === 'string' ? pid : String(pid ?? ''));
  const option = languageOfOption(o, body.optionId);
  if (!option) throw invalidOption(typeof body.optionId === 'string' ? body.optionId : String(body.optionId ?? ''));
  const units = body.units;
  if (units !== undefined) {
    if (!Array.isArray(units)) throw badRequest('units must be a list');
    for (const u of units as Array<Record<string, unknown>>) {
      if (u?.id !== unitIdOf(o)) throw invalidUnit(typeof u?.id === 'string' ? u.id : '');
    }
  }
  return { o, languageId: option.languageId };
}

export async function offerCalendar(req: FastifyRequest, o: OfferRow, body: Body, v: View) {
  const [from, to] = rangeOf(body.localDateStart, body.localDateEnd);
  const starts = await startsOf(req, o, from, to);
  return Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => {
    const date = addDays(from, i);
    return offerCalendarDayOf(o, date, starts.filter((s) => s.date === date), v);
  });
}

export async function offerCheck(req: FastifyRequest, o: OfferRow, body: Body, v: View) {
  const w = checkWindow(body, (id) => dateOrNull(id.slice(0, 10)));
  if (!w) return [];
  const out = (await startsOf(req, o, w.from, w.to)).map((s) => offerAvailabilityOf(o, s, v));
  return w.wanted ? out.filter((a) => w.wanted!.has(a.id)) : out;
}

/** The one start an availability id names, with what is left now; null when there is none. */
export async function offerStartOf(req: FastifyRequest, o: OfferRow, id: unknown): Promise<OfferStart | null> {
  if (typeof id !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(id)) return null;
  const date = dateOrNull(id.slice(0, 10));
  if (!date) return null;
  return (await startsOf(req, o, date, date)).find((s) => startIdOf(o, s) === id) ?? null;
}

/** The shape of an event or tour booking (docs/octo.md): a group-priced tour is priced once. */
export async function offerShape(req: FastifyRequest, b: OctoBooking, o: OfferRow, v: View): Promise<BookingShape | null> {
  const product = await offerProduct(req, o, v);
  if (!product) return null;
  const r = b.record;
  const item = b.order.items.find((i) => i.status === 'active') ?? b.order.items.at(-1);
  const found = await offerStartOf(req, o, r.availabilityId);
  const start = found ?? (item ? { date: r.availabilityId.slice(0, 10), start: item.startAt, end: new Date(item.startAt.getTime() + (o.kind === 'Tour' ? o.duration : 60) * 60_000), left: 0, capacity: 0, closed: false, maxUnits: 0 } : null);
  const group = perBooking(o);
  return {
    product,
    availability: start ? offerAvailabilityOf(o, start, v) : null,
    unitPricing: v.applied.pricing && !group ? pricingOf(o, v) : null,
    pricing: v.applied.pricing ? pricingOf(o, v, group ? 1 : r.unitItems.length) : null,
  };
}
