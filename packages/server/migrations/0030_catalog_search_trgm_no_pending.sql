-- The catalogue's trigram indexes (migration 0025) without GIN's pending list (issue #19,
-- docs/adr/0034-catalogue-plans-and-search-index.md).
--
-- With GIN's default `fastupdate = on`, new and changed titles go to an unsorted pending list
-- that every search reads in full, until a VACUUM or an autoanalyze merges it into the index; a
-- manual ANALYZE does not. A catalogue changes a few times a day and is searched all day, so the
-- list can stay for good: after 2,000 tickets were imported, all 2,030 titles sat in 120 pending
-- pages, and a `q=` page cost 1.0-1.1 ms of PostgreSQL instead of 0.5 (EXPLAIN ANALYZE). With
-- `fastupdate = off` a write updates the index itself, which costs a catalogue write a fraction of
-- a millisecond. Titles already pending are merged now. Where pg_trgm was missing the indexes do
-- not exist, and this does nothing.
DO $$
DECLARE
  i text;
BEGIN
  FOREACH i IN ARRAY ARRAY['tickets_title_trgm', 'events_title_trgm', 'tours_title_trgm', 'exhibitions_title_trgm', 'museums_title_trgm'] LOOP
    IF to_regclass(i) IS NOT NULL THEN
      EXECUTE format('ALTER INDEX %I SET (fastupdate = off)', i);
      PERFORM gin_clean_pending_list(to_regclass(i));
    END IF;
  END LOOP;
END $$;
