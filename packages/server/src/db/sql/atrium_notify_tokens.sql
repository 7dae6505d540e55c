-- Any change to a token or an account notifies `atrium_tokens`, so every node drops its cached
-- principals (token hash -> principal, src/cache/) when the change commits.
-- Fired by the statement triggers below.
CREATE OR REPLACE FUNCTION atrium_notify_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atrium_tokens', TG_TABLE_NAME);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "api_tokens_notify" ON "api_tokens";
CREATE TRIGGER api_tokens_notify AFTER UPDATE OR DELETE ON api_tokens FOR EACH STATEMENT EXECUTE FUNCTION atrium_notify_tokens();

DROP TRIGGER IF EXISTS "accounts_notify" ON "accounts";
CREATE TRIGGER accounts_notify AFTER UPDATE OR DELETE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION atrium_notify_tokens();
