// timestamptz values of raw pool queries (the catalogue's pages and dates,
// db/repositories/catalog/) as Dates, parsed by V8's own Date parser where the text has the usual
// shape. node-postgres's default (postgres-date: a regular expression, then Date.UTC) showed in
// the profile of GET /dates; V8 parses the same instant in a fraction of its time
// (docs/adr/0022-catalogue-read-path.md). Anything else PostgreSQL may print (BC years,
// years past 9999, 'infinity', an offset with seconds from a historical zone) goes to the default
// parser, so every value means what it did. test/domain/timestamptz.test.ts compares both over
// many values and against PostgreSQL's own epoch in several session time zones.
import pg from 'pg';

/** node-postgres's own parser (postgres-date), for what the usual shape does not cover. */
export const defaultTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (v: string) => Date | number;

// 'YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]', as PostgreSQL prints timestamptz with DateStyle ISO,
// for years 1000-9999. V8's Date parser reads this text as it is (its fallback for non-ISO
// strings; Drizzle's timestamp columns rely on the same), but takes a year below 100 for 19xx or
// 20xx, so those go to the default parser too.
const USUAL = /^[1-9]\d{3}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?[+-]\d\d(?::\d\d)?$/;

export function parseTimestamptz(text: string): Date {
  return USUAL.test(text) ? new Date(text) : (defaultTimestamptz(text) as Date);
}
