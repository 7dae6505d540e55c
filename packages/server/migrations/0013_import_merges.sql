-- Catalogue import merges (docs/adr/0014-catalogue-import-merges.md): what each import last wrote
-- for a quota's per-date overrides, so a re-import can tell a date staff changed through the API
-- (the row differs from what the file last said) from one the file still owns. Before this the
-- import deleted every override of the quotas it named and wrote the file's again, which silently
-- undid capacity changes made through the API. Overrides that exist already have no entry: a
-- re-import sets the dates its file names and keeps the others, so nothing is lost on upgrade.
CREATE TABLE catalog_applied_overrides (
  quota_id integer NOT NULL REFERENCES quotas(id) ON DELETE CASCADE,
  date date NOT NULL,
  capacity integer,
  PRIMARY KEY (quota_id, date)
);
