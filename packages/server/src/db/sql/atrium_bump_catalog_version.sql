-- Every change to master data bumps instance.catalog_version and notifies `atrium_catalog`, so
-- ETags change and the in-process catalogue caches of every node are dropped (src/cache/).
-- Fired by the statement triggers below, one per master-data table; a new master-data table
-- gets its trigger here.
CREATE OR REPLACE FUNCTION atrium_bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  UPDATE instance SET catalog_version = catalog_version + 1 WHERE id = 1 RETURNING catalog_version INTO v;
  PERFORM pg_notify('atrium_catalog', coalesce(v, 0)::text);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "museums_catalog_version" ON "museums";
CREATE TRIGGER museums_catalog_version AFTER INSERT OR UPDATE OR DELETE ON museums FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "exhibitions_catalog_version" ON "exhibitions";
CREATE TRIGGER exhibitions_catalog_version AFTER INSERT OR UPDATE OR DELETE ON exhibitions FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "quotas_catalog_version" ON "quotas";
CREATE TRIGGER quotas_catalog_version AFTER INSERT OR UPDATE OR DELETE ON quotas FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "tickets_catalog_version" ON "tickets";
CREATE TRIGGER tickets_catalog_version AFTER INSERT OR UPDATE OR DELETE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "ticket_quotas_catalog_version" ON "ticket_quotas";
CREATE TRIGGER ticket_quotas_catalog_version AFTER INSERT OR UPDATE OR DELETE ON ticket_quotas FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "languages_catalog_version" ON "languages";
CREATE TRIGGER languages_catalog_version AFTER INSERT OR UPDATE OR DELETE ON languages FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "events_catalog_version" ON "events";
CREATE TRIGGER events_catalog_version AFTER INSERT OR UPDATE OR DELETE ON events FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "event_dates_catalog_version" ON "event_dates";
CREATE TRIGGER event_dates_catalog_version AFTER INSERT OR UPDATE OR DELETE ON event_dates FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "tours_catalog_version" ON "tours";
CREATE TRIGGER tours_catalog_version AFTER INSERT OR UPDATE OR DELETE ON tours FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "tour_languages_catalog_version" ON "tour_languages";
CREATE TRIGGER tour_languages_catalog_version AFTER INSERT OR UPDATE OR DELETE ON tour_languages FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "quota_overrides_catalog_version" ON "quota_overrides";
CREATE TRIGGER quota_overrides_catalog_version AFTER INSERT OR UPDATE OR DELETE ON quota_overrides FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "opening_seasons_catalog_version" ON "opening_seasons";
CREATE TRIGGER opening_seasons_catalog_version AFTER INSERT OR UPDATE OR DELETE ON opening_seasons FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "closures_catalog_version" ON "closures";
CREATE TRIGGER closures_catalog_version AFTER INSERT OR UPDATE OR DELETE ON closures FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "quota_slot_overrides_catalog_version" ON "quota_slot_overrides";
CREATE TRIGGER quota_slot_overrides_catalog_version AFTER INSERT OR UPDATE OR DELETE ON quota_slot_overrides FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

DROP TRIGGER IF EXISTS "categories_catalog_version" ON "categories";
CREATE TRIGGER categories_catalog_version AFTER INSERT OR UPDATE OR DELETE ON categories FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();

-- The shop's settings (title, texts, providers) are read by its pages through the same cache.
DROP TRIGGER IF EXISTS "shop_settings_catalog_version" ON "shop_settings";
CREATE TRIGGER shop_settings_catalog_version AFTER INSERT OR UPDATE OR DELETE ON shop_settings FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
