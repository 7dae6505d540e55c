// Schedules (migration 0012, docs/adr/0013-sellability-rule.md): dated seasons of opening hours,
// closures and per-slot capacity overrides. Weekly hours and single-date exceptions stay on the
// museum row (catalog.ts); the sellability rule (domain/schedules) reads all of them together.
import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { museums, quotas, type WeeklyHours } from './catalog.ts';

/** Weekly hours that replace the museum's own from start_date to end_date (inclusive). */
export const openingSeasons = pgTable(
  'opening_seasons',
  {
    id: serial().primaryKey(),
    museumId: integer()
      .notNull()
      .references(() => museums.id, { onDelete: 'cascade' }),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }).notNull(),
    hours: jsonb().$type<WeeklyHours>().notNull(),
  },
  (t) => [index('opening_seasons_museum').on(t.museumId, t.startDate), check('opening_seasons_range', sql`${t.endDate} >= ${t.startDate}`)],
);

/**
 * A closed period from start_date start_time (default 00:00) to end_date end_time (default 24:00),
 * museum-local. Empty id lists = the whole museum; otherwise only what they name.
 */
export const closures = pgTable(
  'closures',
  {
    id: serial().primaryKey(),
    museumId: integer()
      .notNull()
      .references(() => museums.id),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }).notNull(),
    /** Minutes after local midnight; null = the whole first/last day. */
    startTime: integer(),
    endTime: integer(),
    ticketIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    quotaIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    eventIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    tourIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    reason: text(),
    /** The period as instants (museum zone, computed by the domain); the SQL race guard reads these. */
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('closures_museum').on(t.museumId, t.endDate), check('closures_range', sql`${t.endDate} >= ${t.startDate}`)],
);

/** Capacity of one slot of a slot quota (wins over the per-date override and the quota's own). */
export const quotaSlotOverrides = pgTable(
  'quota_slot_overrides',
  {
    quotaId: integer()
      .notNull()
      .references(() => quotas.id, { onDelete: 'cascade' }),
    slotStart: timestamp({ withTimezone: true }).notNull(),
    capacity: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.quotaId, t.slotStart] })],
);
