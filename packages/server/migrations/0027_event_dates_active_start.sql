-- The dates of a range for GET /dates, /events/:id/dates, /dates/languages and /calendar (issue
-- #19, docs/adr/0030-event-dates-in-one-statement.md). Their statement (domain/catalog/datesPage.ts)
-- counts and sorts every active date of the range whose event the caller sees, before it cuts the
-- page. With the event, id and language in the index, PostgreSQL reads the range from it alone
-- (an index-only scan: 700 dates in 5 pages instead of ≈ 100–230 heap pages), as long as the
-- table's pages are all-visible, which autovacuum keeps them on a catalogue that changes rarely.
-- Partial: inactive dates are never listed, and the statement tests `active` as the column itself.
CREATE INDEX IF NOT EXISTS "event_dates_active_start" ON "event_dates" USING btree ("start_at") INCLUDE ("event_id", "id", "language_id") WHERE "active";
