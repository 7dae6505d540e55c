-- Trigram indexes for the catalogue's `q=` search (issue #19, docs/adr/0026-catalogue-search-and-pages.md).
-- titleMatches (domain/catalog/internal.ts) puts `title::text ILIKE '%q%'` in front of its exact
-- per-translation test whenever q has no character that jsonb's text form escapes; a GIN trigram
-- index on that expression finds the candidate rows without reading every title (2,000 tickets:
-- ≈ 10 ms → 1–2 ms). The answers do not depend on the index: without it the same condition is
-- evaluated row by row.
--
-- pg_trgm ships with PostgreSQL's contrib (and with the embedded binaries) and is a trusted
-- extension, so a database owner may create it. Where it is missing or not allowed the migration
-- still succeeds and search runs without the index.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm not available (%): catalogue search runs without trigram indexes', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  s text;
BEGIN
  -- The operator class lives in whatever schema the extension was installed in.
  SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF s IS NULL THEN
    RETURN;
  END IF;
  FOREACH t IN ARRAY ARRAY['tickets', 'events', 'tours', 'exhibitions', 'museums'] LOOP
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin ((title::text) %I.gin_trgm_ops)', t || '_title_trgm', t, s);
  END LOOP;
END $$;
