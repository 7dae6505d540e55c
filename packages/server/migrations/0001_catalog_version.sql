-- Every change to master data bumps instance.catalog_version and notifies listeners, so ETags
-- change and in-process catalogue caches on every node are invalidated (LISTEN atrium_catalog).
CREATE FUNCTION atrium_bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  UPDATE instance SET catalog_version = catalog_version + 1 WHERE id = 1 RETURNING catalog_version INTO v;
  PERFORM pg_notify('atrium_catalog', coalesce(v, 0)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER museums_catalog_version AFTER INSERT OR UPDATE OR DELETE ON museums FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER exhibitions_catalog_version AFTER INSERT OR UPDATE OR DELETE ON exhibitions FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER quotas_catalog_version AFTER INSERT OR UPDATE OR DELETE ON quotas FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER tickets_catalog_version AFTER INSERT OR UPDATE OR DELETE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER ticket_quotas_catalog_version AFTER INSERT OR UPDATE OR DELETE ON ticket_quotas FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER languages_catalog_version AFTER INSERT OR UPDATE OR DELETE ON languages FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER events_catalog_version AFTER INSERT OR UPDATE OR DELETE ON events FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER event_dates_catalog_version AFTER INSERT OR UPDATE OR DELETE ON event_dates FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER tours_catalog_version AFTER INSERT OR UPDATE OR DELETE ON tours FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER tour_languages_catalog_version AFTER INSERT OR UPDATE OR DELETE ON tour_languages FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
INSERT INTO instance (id, instance_id) VALUES (1, substr(md5(random()::text || clock_timestamp()::text), 1, 8)) ON CONFLICT (id) DO NOTHING;
