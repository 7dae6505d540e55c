-- A name as people type it when searching: lower case, ü/ö/ä/ß written ue/oe/ae/ss, other
-- accents dropped, apostrophes removed ("O'Brien" -> "obrien", "Weiß" -> "weiss"). The console's
-- order search and the API's customer name filter compare both sides through it
-- (src/db/repositories/ordersQuery.ts, src/db/repositories/customers.ts), and the expression
-- indexes of migration 0045 use it.
--
-- IMMUTABLE and used by indexes: a change of meaning needs a numbered migration that rebuilds them.
CREATE OR REPLACE FUNCTION atrium_search_text(s text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT replace(replace(replace(replace(translate(lower(s), 'éèêëáàâíìîïóòôúùûçñ''’‘`´', 'eeeeaaaiiiiooouuucn'), 'ü', 'ue'), 'ö', 'oe'), 'ä', 'ae'), 'ß', 'ss') $$;
