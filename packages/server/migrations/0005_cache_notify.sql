-- In-process caches on every node (src/cache) depend on notifications:
-- 1. quota_overrides is master data too (per-date capacity shown by GET /quotas), but 0001 gave it
--    no catalog_version trigger, so a changed override would not invalidate cached answers.
-- 2. Token resolution is cached per process (hash → principal); any change to a token (revoke,
--    rotate, expiry) or to an account (rights, scope, disabled, rate limit) notifies
--    `atrium_tokens` so every node drops its cached principals when the change commits.
CREATE TRIGGER quota_overrides_catalog_version AFTER INSERT OR UPDATE OR DELETE ON quota_overrides FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE FUNCTION atrium_notify_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atrium_tokens', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_tokens_notify AFTER UPDATE OR DELETE ON api_tokens FOR EACH STATEMENT EXECUTE FUNCTION atrium_notify_tokens();
--> statement-breakpoint
CREATE TRIGGER accounts_notify AFTER UPDATE OR DELETE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION atrium_notify_tokens();
