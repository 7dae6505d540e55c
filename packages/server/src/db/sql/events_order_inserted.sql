-- Records order.created (and order.finalized for an order created finalized) in the outbox, with
-- the order's snapshot, for every order written by order_place or order_place_batch. The trigger
-- is deferred: it runs at COMMIT, when the items, barcodes and documents are written, so one
-- snapshot serves both events; outbox_events_snapshot skips rows that carry one already.
CREATE OR REPLACE FUNCTION events_order_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := order_snapshot(NEW.id);
BEGIN
  INSERT INTO outbox_events (type, account_id, museum_ids, subject_type, subject_id, created_at, snapshot)
    VALUES ('order.created', NEW.account_id, NEW.museum_ids, 'order', NEW.id, NEW.created_at, s);
  IF NEW.status = 'finalized' THEN
    INSERT INTO outbox_events (type, account_id, museum_ids, subject_type, subject_id, created_at, snapshot)
      VALUES ('order.finalized', NEW.account_id, NEW.museum_ids, 'order', NEW.id, NEW.created_at, s);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "orders_events" ON "orders";
CREATE CONSTRAINT TRIGGER "orders_events" AFTER INSERT ON "orders" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION events_order_inserted();
