// Events and tours as OCTO START_TIME products (docs/octo.md, "Mapping"): an event's dates and a
// tour's possible start times are its availabilities. One unit: the offer's one price (go~mus
// has one price per event and per tour), named by its title like a ticket's. A tour offered in
// several languages has one option per language (`lang-<code>`), else the option DEFAULT.
import type { EventOffer, OfferStart, TourOffer } from '../../domain/octo/offers.ts';
import { isoInZone, localMinutesOf } from '../../domain/time.ts';
import { utc } from './availability.ts';
import { OPTION_ID, hhmm, unitIdOf, unitTypeOf } from './ids.ts';
import { textIn } from './language.ts';
import { DELIVERY_FORMATS, DELIVERY_METHODS, mediaOf, pricingOf, type View } from './products.ts';

export type OfferRow = (EventOffer & { kind: 'Event' }) | (TourOffer & { kind: 'Tour' });

export const eventProductId = (id: number) => `event-${id}`;
export const tourProductId = (id: number) => `tour-${id}`;

/** The kind and id a non-ticket product id names, or null. */
export function offerIdOf(id: unknown): { kind: 'Event' | 'Tour'; id: number } | null {
  if (typeof id !== 'string') return null;
  const m = /^(event|tour)-([1-9]\d{0,9})$/.exec(id);
  return m ? { kind: m[1] === 'event' ? 'Event' : 'Tour', id: Number(m[2]) } : null;
}

/** Per booking for a group-priced tour, else per unit. */
export const perBooking = (o: OfferRow) => o.kind === 'Tour' && o.pricing === 'group';

/** The options of an offer: [option id, language id or undefined, name]. */
export function optionsOf(o: OfferRow): Array<{ id: string; languageId: number | undefined; name: string }> {
  if (o.kind === 'Tour' && o.languages.length > 1) return o.languages.map((l) => ({ id: `lang-${l.code}`, languageId: l.id, name: l.name }));
  return [{ id: OPTION_ID, languageId: o.kind === 'Tour' ? o.languages[0]?.id : undefined, name: 'Default' }];
}

/** The language id an option id names (undefined: no language), or null for an unknown option. */
export function languageOfOption(o: OfferRow, optionId: unknown): { languageId: number | undefined } | null {
  const hit = optionsOf(o).find((x) => x.id === optionId);
  return hit ? { languageId: hit.languageId } : null;
}

function unitOf(o: OfferRow, v: View) {
  const title = textIn(o.title, v.lang);
  const maxQuantity = o.kind === 'Tour' ? o.maxPersons : null;
  return {
    id: unitIdOf(o),
    internalName: title,
    reference: null,
    type: unitTypeOf(o),
    restrictions: { minAge: 0, maxAge: 100, idRequired: false, minQuantity: null, maxQuantity, paxCount: 1, accompaniedBy: [] },
    requiredContactFields: [],
    ...(v.applied.pricing ? { pricingFrom: [pricingOf(o, v)] } : {}),
    ...(v.applied.content ? { title, shortDescription: textIn(o.subTitle, v.lang) || '', features: [] } : {}),
  };
}

const content = (o: OfferRow, v: View, duration: number) => ({
  title: textIn(o.title, v.lang),
  shortDescription: textIn(o.subTitle, v.lang) || '',
  description: textIn(o.description, v.lang) || '',
  features: [],
  faqs: [],
  media: mediaOf(o.picture, v),
  locations: [],
  durationMinutesFrom: duration,
  durationMinutesTo: null,
  commentary: [],
});

/** The product; `durations` (minutes) of an event's coming dates; `times` are the local start times ("HH:MM") it is offered at (at least one). */
export function offerProductOf(o: OfferRow, times: string[], durations: number[], v: View) {
  const duration = o.kind === 'Tour' ? o.duration : Math.min(...durations);
  const restrictions = o.kind === 'Tour' ? { minUnits: o.minPersons, maxUnits: o.maxPersons } : { minUnits: 1, maxUnits: null };
  const options = optionsOf(o).map((x, i) => ({
    id: x.id,
    default: i === 0,
    internalName: x.name,
    reference: x.languageId === undefined ? null : String(x.languageId),
    availabilityLocalStartTimes: times,
    cancellationCutoff: `${v.cutoffHours} hours`,
    cancellationCutoffAmount: v.cutoffHours,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: [],
    restrictions,
    units: [unitOf(o, v)],
    ...(v.applied.content ? { ...content(o, v, duration), title: x.languageId === undefined ? textIn(o.title, v.lang) : `${textIn(o.title, v.lang)} (${x.name})` } : {}),
  }));
  return {
    id: o.kind === 'Event' ? eventProductId(o.id) : tourProductId(o.id),
    internalName: textIn(o.title, v.lang),
    reference: String(o.id),
    locale: v.lang,
    timeZone: o.zone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME',
    deliveryFormats: [...DELIVERY_FORMATS],
    deliveryMethods: [...DELIVERY_METHODS],
    redemptionMethod: 'DIGITAL',
    options,
    ...(v.applied.pricing ? { defaultCurrency: v.currency, availableCurrencies: [v.currency], pricingPer: perBooking(o) ? 'BOOKING' : 'UNIT' } : {}),
    ...(v.applied.content ? { ...content(o, v, duration), categoryLabels: ['museums'] } : {}),
  };
}

export const startIdOf = (o: OfferRow, s: Pick<OfferStart, 'date' | 'start'>) => `${s.date}T${hhmm(localMinutesOf(s.start, o.zone))}`;

function statusOf(s: OfferStart): 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED' {
  if (s.closed) return 'CLOSED';
  if (s.left <= 0) return 'SOLD_OUT';
  return s.left * 2 < s.capacity ? 'LIMITED' : 'AVAILABLE';
}

export function offerAvailabilityOf(o: OfferRow, s: OfferStart, v: View) {
  return {
    id: startIdOf(o, s),
    localDateTimeStart: isoInZone(s.start, o.zone),
    localDateTimeEnd: isoInZone(s.end, o.zone),
    utcCutoffAt: utc(s.start),
    allDay: false,
    available: s.left > 0,
    status: statusOf(s),
    vacancies: s.left,
    capacity: s.capacity,
    maxUnits: Math.max(0, s.maxUnits),
    openingHours: [],
    ...(v.applied.pricing ? { unitPricing: [{ ...pricingOf(o, v), unitId: unitIdOf(o) }] } : {}),
    ...(v.applied.content ? { title: textIn(o.title, v.lang) || '', shortDescription: textIn(o.subTitle, v.lang) || '' } : {}),
  };
}

/** One calendar day from its starts: CLOSED without any open start, LIMITED under half left. */
export function offerCalendarDayOf(o: OfferRow, date: string, starts: OfferStart[], v: View) {
  const open = starts.filter((s) => !s.closed);
  const vacancies = open.reduce((n, s) => n + s.left, 0);
  const capacity = open.reduce((n, s) => n + s.capacity, 0);
  const status = open.length === 0 ? 'CLOSED' : vacancies <= 0 ? 'SOLD_OUT' : vacancies * 2 < capacity ? 'LIMITED' : 'AVAILABLE';
  return {
    localDate: date,
    available: vacancies > 0,
    status,
    vacancies: open.length === 0 ? null : vacancies,
    capacity: open.length === 0 ? null : capacity,
    openingHours: [],
    ...(v.applied.pricing ? { unitPricingFrom: [{ ...pricingOf(o, v), unitId: unitIdOf(o) }] } : {}),
  };
}
