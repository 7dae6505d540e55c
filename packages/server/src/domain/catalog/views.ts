// Catalogue records as the caller sees them (docs/reference/gomus-v4-facts.md §3 field names): translated for the
// requested locale(s), priced for the caller, `bookable` computed for the caller, and back-office
// fields (channels, reseller price, active) only for user tokens.
import type { Shown } from '../../db/repositories/catalog/dateStatements.ts';
import type { LanguageRef } from '../../db/repositories/catalog/related.ts';
import type { eventDates, events, exhibitions, museums, quotas, tickets, tours } from '../../db/schema/index.ts';
import type { Principal } from '../principal.ts';
import { isoInZone } from '../time.ts';
import { bookableFor, isUser, tr, trTitle, type LocaleMode } from './internal.ts';
import type { CategoryRef } from './categories.ts';
import { priceFor } from './visibility.ts';

type Row<T extends { $inferSelect: unknown }> = T['$inferSelect'];
export type View = Record<string, unknown>;

function backOffice(p: Principal, r: { salesChannels: string[]; resellerAccountIds: number[]; resellerPriceCents: number | null; active: boolean }) {
  if (!isUser(p)) return {};
  return {
    sales_channels: r.salesChannels,
    reseller_account_ids: r.resellerAccountIds,
    reseller_price_cents: r.resellerPriceCents,
    active: r.active,
  };
}

export function museumView(p: Principal, m: Row<typeof museums>, L: LocaleMode): View {
  return {
    id: m.id,
    title: trTitle(m.title, L),
    sub_title: tr(m.subTitle, L),
    description: tr(m.description, L),
    time_zone: m.timeZone,
    location: m.location ?? null,
    picture: m.picture ?? null,
    ...(isUser(p) ? { weekly_opening_hours: m.openingHours, opening_exceptions: m.openingExceptions } : {}),
  };
}

export function exhibitionView(m: Row<typeof exhibitions>, L: LocaleMode): View {
  return {
    id: m.id,
    museum_id: m.museumId,
    title: trTitle(m.title, L),
    sub_title: tr(m.subTitle, L),
    description: tr(m.description, L),
    featured: m.featured,
    time_frames: m.timeFrames,
    picture: m.picture ?? null,
  };
}

/** A ticket is valid on `date` inside its validity window (open ends allowed). */
export function validOn(t: { validFrom: string | null; validUntil: string | null }, date: string): boolean {
  return (t.validFrom === null || t.validFrom <= date) && (t.validUntil === null || t.validUntil >= date);
}

/**
 * go~mus ticket fields Atrium keeps no data for, with go~mus's own defaults: no ticket is
 * personalised (no annual tickets), none asks entry staff to check an ID, none carries a text for
 * after the sale (docs/gomus-compatibility.md).
 */
const TICKET_GOMUS = { personalizeable: false, identification: false, after_sale_information: null } as const;

/**
 * go~mus event fields Atrium keeps no data for: events are booked, never registered for through a
 * public form; no CMS content; no tags (the tag collections are empty, routes/catalog/gomus.ts).
 * Fresh arrays and objects per view, so no caller can change a shared one.
 */
function eventGomus() {
  return {
    registerable: false, content: {},
    age_groups: [], audiences: [], catch_words: [], disablements: [], grades: [], proposal_categories: [],
  };
}

export function ticketView(p: Principal, t: Row<typeof tickets>, L: LocaleMode, x: { quotaIds: number[]; validAt: string }): View {
  return {
    id: t.id,
    title: trTitle(t.title, L),
    sub_title: tr(t.subTitle, L),
    description: tr(t.description, L),
    ticket_type: t.ticketType,
    bookable: bookableFor(p, t) && validOn(t, x.validAt),
    museum_ids: [t.museumId],
    exhibition_ids: t.exhibitionIds,
    quota_ids: x.quotaIds,
    price_cents: priceFor(p, t),
    vat_pct: t.vatPct,
    tax_included: t.taxIncluded,
    discount: t.discount,
    first_entry: t.firstEntry,
    last_entry: t.lastEntry,
    entry_duration: t.entryDuration,
    min_persons: t.minPersons,
    max_persons: t.maxPersons,
    attendees: t.attendees,
    ...TICKET_GOMUS,
    picture: t.picture ?? null,
    valid_from: t.validFrom,
    valid_until: t.validUntil,
    ...backOffice(p, t),
  };
}

export function eventView(
  p: Principal, e: Row<typeof events>, L: LocaleMode,
  x: { languages: LanguageRef[]; category: CategoryRef | null; location: Record<string, unknown> | null },
): View {
  return {
    id: e.id,
    museum_id: e.museumId,
    exhibition_id: e.exhibitionId,
    title: trTitle(e.title, L),
    sub_title: tr(e.subTitle, L),
    description: tr(e.description, L),
    category: x.category,
    featured: e.featured,
    bookable: bookableFor(p, e),
    price_cents: priceFor(p, e),
    vat_pct: e.vatPct,
    tax_included: e.taxIncluded,
    languages: x.languages,
    // go~mus: the museum's address.
    location: x.location,
    picture: e.picture ?? null,
    ...eventGomus(),
    ...backOffice(p, e),
  };
}

export interface DateExtras {
  zone: string;
  booked: number;
  language: LanguageRef | null;
  /** The event's category (go~mus `{id, name}`). */
  category: CategoryRef | null;
  now: Date;
  /** Refused by the sellability rule (domain/schedules): outside opening hours or closed. */
  closed?: boolean;
}

/** An event date: one pool of seats. Bookable while in the future with seats left. */
export function eventDateView(p: Principal, d: Shown<typeof eventDates>, e: Shown<typeof events>, L: LocaleMode, x: DateExtras): View {
  const available = Math.max(0, d.seatsMax - x.booked);
  return {
    id: d.id,
    event_id: d.eventId,
    museum_id: e.museumId,
    exhibition_id: e.exhibitionId,
    title: trTitle(e.title, L),
    sub_title: tr(e.subTitle, L),
    description: tr(e.description, L),
    category: x.category,
    start_time: isoInZone(d.startAt, x.zone),
    duration: d.duration,
    seats: { min: d.seatsMin, max: d.seatsMax, booked: x.booked, available, max_per_registration: d.maxPerRegistration },
    language: x.language,
    bookable: bookableFor(p, e) && d.active && d.startAt.getTime() > x.now.getTime() && available > 0 && !x.closed,
    closed: x.closed === true,
    price_cents: priceFor(p, e),
    vat_pct: e.vatPct,
    tax_included: e.taxIncluded,
    ...(isUser(p) ? { active: d.active } : {}),
  };
}

/**
 * What go~mus adds to one event date (`GET /events/:event_id/dates/:id`): the date's price as
 * go~mus's default price (Atrium has one price per event, per seat: `group: false`), `discount` 0
 * (events carry none) and `seatings` empty (Atrium has no seated events).
 */
export function eventDateDetail(p: Principal, e: Shown<typeof events>): View {
  return {
    prices: [{ group: false, optional: false, price_cents: priceFor(p, e), vat_pct: e.vatPct }],
    discount: 0,
    seatings: [],
  };
}

export function tourView(
  p: Principal, t: Row<typeof tours>, L: LocaleMode,
  x: { languages: LanguageRef[]; category: CategoryRef | null; location: Record<string, unknown> | null },
): View {
  return {
    id: t.id,
    museum_id: t.museumId,
    exhibition_id: t.exhibitionId,
    title: trTitle(t.title, L),
    sub_title: tr(t.subTitle, L),
    description: tr(t.description, L),
    category: x.category,
    featured: t.featured,
    duration: t.duration,
    min_persons: t.minPersons,
    max_persons: t.maxPersons,
    max_concurrent: t.maxConcurrent,
    window_start: t.windowStart,
    window_end: t.windowEnd,
    step: t.step,
    languages: x.languages,
    // A tour booking names a language, so a tour without any cannot be booked.
    bookable: bookableFor(p, t) && x.languages.length > 0,
    price_cents: priceFor(p, t),
    pricing: t.pricing,
    vat_pct: t.vatPct,
    tax_included: t.taxIncluded,
    picture: t.picture ?? null,
    // go~mus: the museum's address, and the event fields Atrium keeps no data for.
    location: x.location,
    ...eventGomus(),
    ...backOffice(p, t),
  };
}

export function quotaView(q: Row<typeof quotas>, x: { overrides: Array<{ date: string; capacity: number | null }>; ticketIds: number[] }): View {
  return { id: q.id, museum_id: q.museumId, name: q.name, kind: q.kind, capacity: q.capacity, overrides: x.overrides, ticket_ids: x.ticketIds };
}
