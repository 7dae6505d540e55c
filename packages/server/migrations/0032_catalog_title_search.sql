-- Catalogue search on one text column per title (issue #19, docs/adr/0039-catalogue-title-search-column.md).
--
-- titleMatches (domain/catalog/internal.ts) tested `title::text ILIKE '%q%'` (the trigram index of
-- migration 0025 finds the candidates) and then, per candidate, each translation with
-- jsonb_each_text: on 2,030 tickets a search for "Ticket 12" spent ~0.5 of its 0.8 ms in
-- PostgreSQL rechecking 100 candidates, each one turning its jsonb title into text for the ILIKE
-- and running the set-returning function for the exact test (auto_explain).
--
-- `title_search` holds the title's translations joined by U+001F, kept by PostgreSQL itself (a
-- stored generated column). A pattern `%q%` whose q has no control character (the only kind that
-- takes this path) cannot match across a U+001F, so it matches this text exactly when it matches
-- one of the translations: the one ILIKE is the whole test, and its trigram index replaces the
-- one on `title::text`. Where pg_trgm is missing, the column is still added and searched row by
-- row, as before.
CREATE FUNCTION atrium_title_search(title jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT string_agg(value, E'\x1f' ORDER BY key) FROM jsonb_each_text(CASE WHEN jsonb_typeof(title) = 'object' THEN title END) $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  s text;
BEGIN
  SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  FOREACH t IN ARRAY ARRAY['tickets', 'events', 'tours', 'exhibitions', 'museums'] LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN title_search text GENERATED ALWAYS AS (atrium_title_search(title)) STORED', t);
    IF s IS NOT NULL THEN
      EXECUTE format('CREATE INDEX %I ON %I USING gin (title_search %I.gin_trgm_ops) WITH (fastupdate = off)', t || '_title_search_trgm', t, s);
    END IF;
    EXECUTE format('DROP INDEX IF EXISTS %I', t || '_title_trgm');
  END LOOP;
END $$;
