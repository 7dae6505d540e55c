-- Customer names found as people type them (src/db/sql/atrium_search_text.sql): prefix matches
-- on the normalised surname and first name use these indexes. The function is created here too,
-- as the indexes need it while this migration runs; its file keeps the current definition.
CREATE OR REPLACE FUNCTION atrium_search_text(s text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT replace(replace(replace(replace(translate(lower(s), 'éèêëáàâíìîïóòôúùûçñ''’‘`´', 'eeeeaaaiiiiooouuucn'), 'ü', 'ue'), 'ö', 'oe'), 'ä', 'ae'), 'ß', 'ss') $$;
--> statement-breakpoint
CREATE INDEX "customers_surname_search" ON "customers" (atrium_search_text("surname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_name_search" ON "customers" (atrium_search_text("name") text_pattern_ops);
