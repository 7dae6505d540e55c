import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The go~mus picture object of a record's current picture (src/domain/media; migration 0040). */
export type PictureJson = Record<string, string | null>;
/** Translatable text: `{ "de": "…", "en": "…" }`. */
export type Translated = Record<string, string>;
/** Opening hours per weekday, Monday first: `[open, close]` in minutes after midnight, or null. */
export type WeeklyHours = Array<[number, number] | null>;

const audit = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

// Who may buy a product: 'shop' (public web shop, anonymous and public tokens) and/or
// 'reseller'. With 'reseller', a non-empty `resellerAccountIds` names the only resellers allowed.
// No channel at all means back office only.
const channels = {
  salesChannels: text().array().notNull().default(sql`'{shop,reseller}'::text[]`),
  resellerAccountIds: integer().array().notNull().default(sql`'{}'::integer[]`),
};

export const museums = pgTable('museums', {
  id: serial().primaryKey(),
  picture: jsonb().$type<PictureJson>(),
  title: jsonb().$type<Translated>().notNull(),
  subTitle: jsonb().$type<Translated>(),
  description: jsonb().$type<Translated>(),
  timeZone: text().notNull(),
  location: jsonb().$type<Record<string, unknown>>(),
  openingHours: jsonb().$type<WeeklyHours>().notNull(),
  /** Date-specific hours: `{"2026-12-24": [600, 840], "2026-12-25": null}`. */
  openingExceptions: jsonb().$type<Record<string, [number, number] | null>>().notNull().default({}),
  ...audit,
});

export const exhibitions = pgTable(
  'exhibitions',
  {
    id: serial().primaryKey(),
    picture: jsonb().$type<PictureJson>(),
    museumId: integer()
      .notNull()
      .references(() => museums.id),
    title: jsonb().$type<Translated>().notNull(),
    subTitle: jsonb().$type<Translated>(),
    description: jsonb().$type<Translated>(),
    featured: boolean().notNull().default(false),
    timeFrames: jsonb().$type<Array<{ start_at: string; end_at: string }>>().notNull().default([]),
    ...audit,
  },
  (t) => [index('exhibitions_museum').on(t.museumId)],
);

// A quota holds capacity: per slot start ('slot') or per museum-local day ('day').
export const quotas = pgTable(
  'quotas',
  {
    id: serial().primaryKey(),
    museumId: integer()
      .notNull()
      .references(() => museums.id),
    name: text().notNull(),
    kind: text().notNull(),
    capacity: integer().notNull(),
    ...audit,
  },
  (t) => [
    check('quotas_kind', sql`${t.kind} in ('slot', 'day')`),
    check('quotas_capacity', sql`${t.capacity} >= 0`),
  ],
);

// Per-date capacity override; capacity null closes the quota on that date.
export const quotaOverrides = pgTable(
  'quota_overrides',
  {
    quotaId: integer()
      .notNull()
      .references(() => quotas.id, { onDelete: 'cascade' }),
    date: date().notNull(),
    capacity: integer(),
  },
  (t) => [primaryKey({ columns: [t.quotaId, t.date] })],
);

export const tickets = pgTable(
  'tickets',
  {
    id: serial().primaryKey(),
    picture: jsonb().$type<PictureJson>(),
    museumId: integer()
      .notNull()
      .references(() => museums.id),
    exhibitionIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    title: jsonb().$type<Translated>().notNull(),
    subTitle: jsonb().$type<Translated>(),
    description: jsonb().$type<Translated>(),
    ticketType: text().notNull(),
    priceCents: integer().notNull(),
    resellerPriceCents: integer(),
    vatPct: doublePrecision().notNull().default(0),
    taxIncluded: boolean().notNull().default(true),
    discount: integer().notNull().default(0),
    firstEntry: integer().notNull(),
    lastEntry: integer().notNull(),
    entryDuration: integer(),
    minPersons: integer().notNull().default(1),
    maxPersons: integer().notNull().default(100),
    attendees: text().notNull().default('none'),
    ...channels,
    validFrom: date(),
    validUntil: date(),
    active: boolean().notNull().default(true),
    /** Visitor cancellation (migration 0043): null = the shop's default, 'never', or 'Nh'. */
    cancellationRule: text(),
    ...audit,
  },
  (t) => [
    index('tickets_museum').on(t.museumId),
    check('tickets_type', sql`${t.ticketType} in ('time_slot', 'normal')`),
    check('tickets_attendees', sql`${t.attendees} in ('none', 'optional', 'required')`),
    check('tickets_price', sql`${t.priceCents} >= 0`),
    check('tickets_entry', sql`${t.firstEntry} >= 0 and ${t.lastEntry} >= ${t.firstEntry} and ${t.lastEntry} < 1440`),
    check('tickets_slot', sql`(${t.ticketType} = 'time_slot') = (${t.entryDuration} is not null)`),
  ],
);

export const ticketQuotas = pgTable(
  'ticket_quotas',
  {
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    quotaId: integer()
      .notNull()
      .references(() => quotas.id),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.quotaId] }), index('ticket_quotas_quota').on(t.quotaId)],
);

export const languages = pgTable('languages', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
});

// go~mus categories (migration 0024): an event's or tour's `category` is {id, name}. Event and
// tour categories are kept apart, as go~mus lists them (/events/categories, /tours/categories).
export const categories = pgTable(
  'categories',
  {
    id: serial().primaryKey(),
    kind: text().$type<'event' | 'tour'>().notNull(),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('categories_kind_name').on(t.kind, t.name), check('categories_kind', sql`${t.kind} in ('event', 'tour')`)],
);

export const events = pgTable(
  'events',
  {
    id: serial().primaryKey(),
    picture: jsonb().$type<PictureJson>(),
    museumId: integer()
      .notNull()
      .references(() => museums.id),
    exhibitionId: integer().references(() => exhibitions.id),
    title: jsonb().$type<Translated>().notNull(),
    subTitle: jsonb().$type<Translated>(),
    description: jsonb().$type<Translated>(),
    categoryId: integer().references(() => categories.id, { onDelete: 'set null' }),
    featured: boolean().notNull().default(false),
    priceCents: integer().notNull().default(0),
    resellerPriceCents: integer(),
    vatPct: doublePrecision().notNull().default(0),
    taxIncluded: boolean().notNull().default(true),
    ...channels,
    active: boolean().notNull().default(true),
    cancellationRule: text(),
    ...audit,
  },
  (t) => [index('events_museum').on(t.museumId), index('events_category').on(t.categoryId)],
);

// An event is never bookable itself; its dates are. Each date is one pool of seats.
export const eventDates = pgTable(
  'event_dates',
  {
    id: serial().primaryKey(),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    startAt: timestamp({ withTimezone: true }).notNull(),
    duration: integer().notNull().default(60),
    seatsMin: integer().notNull().default(1),
    seatsMax: integer().notNull(),
    maxPerRegistration: integer(),
    languageId: integer().references(() => languages.id),
    active: boolean().notNull().default(true),
    ...audit,
  },
  // Also event_dates_active_start (migration 0027), a partial covering index: declared in SQL
  // only, as Drizzle's index builder has no INCLUDE.
  (t) => [index('event_dates_event_start').on(t.eventId, t.startAt), index('event_dates_start').on(t.startAt)],
);

// Tours have no fixed dates: a booking proposes a start time within the daily window, on the
// step grid; at most `maxConcurrent` bookings of the tour may overlap, each with at most
// `maxPersons` participants.
export const tours = pgTable(
  'tours',
  {
    id: serial().primaryKey(),
    picture: jsonb().$type<PictureJson>(),
    museumId: integer()
      .notNull()
      .references(() => museums.id),
    exhibitionId: integer().references(() => exhibitions.id),
    title: jsonb().$type<Translated>().notNull(),
    subTitle: jsonb().$type<Translated>(),
    description: jsonb().$type<Translated>(),
    categoryId: integer().references(() => categories.id, { onDelete: 'set null' }),
    featured: boolean().notNull().default(false),
    duration: integer().notNull(),
    minPersons: integer().notNull().default(1),
    maxPersons: integer().notNull(),
    maxConcurrent: integer().notNull().default(1),
    windowStart: integer().notNull().default(600),
    windowEnd: integer().notNull().default(960),
    step: integer().notNull().default(15),
    priceCents: integer().notNull(),
    resellerPriceCents: integer(),
    pricing: text().notNull().default('group'),
    vatPct: doublePrecision().notNull().default(0),
    taxIncluded: boolean().notNull().default(true),
    ...channels,
    active: boolean().notNull().default(true),
    cancellationRule: text(),
    ...audit,
  },
  (t) => [
    index('tours_museum').on(t.museumId),
    index('tours_category').on(t.categoryId),
    check('tours_pricing', sql`${t.pricing} in ('group', 'person')`),
  ],
);

export const tourLanguages = pgTable(
  'tour_languages',
  {
    tourId: integer()
      .notNull()
      .references(() => tours.id, { onDelete: 'cascade' }),
    languageId: integer()
      .notNull()
      .references(() => languages.id),
  },
  (t) => [primaryKey({ columns: [t.tourId, t.languageId] })],
);
