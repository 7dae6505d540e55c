-- Records document.available / document.rejected in the outbox when a render or scan job sets a
-- document's final status, in that job's transaction (src/jobs/); src/notify/ delivers it.
-- Fired by the trigger below.
CREATE OR REPLACE FUNCTION events_document_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox_events (type, account_id, museum_ids, subject_type, subject_id)
    VALUES ('document.' || NEW.status, NEW.account_id, NEW.museum_ids, 'document', NEW.id);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "documents_events" ON "documents";
CREATE TRIGGER "documents_events" AFTER UPDATE OF "status" ON "documents" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('available', 'rejected'))
  EXECUTE FUNCTION events_document_decided();
