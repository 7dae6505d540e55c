-- Cash closings are written once and never changed: the database refuses to update, delete or
-- truncate them, whoever asks (rows are written by src/db/repositories/cashClosings.ts). A wrong
-- count is corrected by the next day's record, never by editing a closed one.
CREATE OR REPLACE FUNCTION "cash_closings_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'a closed cash record cannot be changed' USING ERRCODE = 'insufficient_privilege';
END $$;

DROP TRIGGER IF EXISTS "cash_closings_no_update" ON "cash_closings";
CREATE TRIGGER "cash_closings_no_update" BEFORE UPDATE OR DELETE ON "cash_closings" FOR EACH ROW EXECUTE FUNCTION "cash_closings_immutable"();

DROP TRIGGER IF EXISTS "cash_closings_no_truncate" ON "cash_closings";
CREATE TRIGGER "cash_closings_no_truncate" BEFORE TRUNCATE ON "cash_closings" FOR EACH STATEMENT EXECUTE FUNCTION "cash_closings_immutable"();
