-- Copies the order's rows (order_snapshot) into an order event when its transaction commits, on
-- every path that records order events on existing orders (finalize, cancel, expiry): deferred,
-- it sees the finished change. src/notify/snapshot.ts turns the rows into the API's order view
-- (docs/adr/0023-event-snapshots-delivery-claims.md). Fired by the trigger below.
CREATE OR REPLACE FUNCTION events_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE outbox_events SET snapshot = order_snapshot(NEW.subject_id) WHERE id = NEW.id;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "outbox_events_snapshot" ON "outbox_events";
CREATE CONSTRAINT TRIGGER "outbox_events_snapshot" AFTER INSERT ON "outbox_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.subject_type = 'order' AND NEW.snapshot IS NULL) EXECUTE FUNCTION events_snapshot();
