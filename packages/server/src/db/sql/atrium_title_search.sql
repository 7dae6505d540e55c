-- A title's translations joined by U+001F: the stored generated column `title_search` of tickets,
-- events, tours, exhibitions and museums, which catalogue search matches with one ILIKE
-- (src/domain/catalog/internal.ts). A pattern without control characters cannot match across a
-- U+001F, so it matches this text exactly when it matches one translation.
--
-- IMMUTABLE and used by stored columns: a changed body applies to rows written afterwards only;
-- a change of meaning needs a numbered migration that rewrites the columns.
CREATE OR REPLACE FUNCTION atrium_title_search(title jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT string_agg(value, E'\x1f' ORDER BY key) FROM jsonb_each_text(CASE WHEN jsonb_typeof(title) = 'object' THEN title END) $$;
