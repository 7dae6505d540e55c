-- Append-only audit log: the database itself refuses to change or remove an entry, whoever asks
-- (rows are written by src/domain/audit/recordAudit.ts). Fired by the triggers below.
CREATE OR REPLACE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;

DROP TRIGGER IF EXISTS "audit_log_no_update" ON "audit_log";
CREATE TRIGGER "audit_log_no_update" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();

DROP TRIGGER IF EXISTS "audit_log_no_truncate" ON "audit_log";
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
