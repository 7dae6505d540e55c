-- The race guard of the sellability rule on every new order item and hold: refuses the row with
-- SQLSTATE AT003 (answered as CLOSED) when a closure covers it. Fired by the row triggers below;
-- the test itself is atrium_closure_hit (src/db/sql/atrium_closure_hit.sql).
CREATE OR REPLACE FUNCTION atrium_closure_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_museum integer;
  v_tour integer;
  v_reason text;
BEGIN
  IF TG_TABLE_NAME = 'order_items' THEN
    v_museum := NEW.museum_id;
    v_tour := NEW.tour_id;
  ELSIF NEW.ticket_id IS NOT NULL THEN
    SELECT museum_id INTO v_museum FROM tickets WHERE id = NEW.ticket_id;
  ELSE
    SELECT e.museum_id INTO v_museum FROM event_dates d JOIN events e ON e.id = d.event_id WHERE d.id = NEW.event_date_id;
  END IF;
  v_reason := atrium_closure_hit(v_museum, NEW.ticket_id, NEW.event_date_id, v_tour, NEW.start_at);
  IF v_reason IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'AT003', MESSAGE = v_reason;
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS "order_items_closure_guard" ON "order_items";
CREATE TRIGGER order_items_closure_guard BEFORE INSERT ON order_items FOR EACH ROW EXECUTE FUNCTION atrium_closure_guard();

DROP TRIGGER IF EXISTS "reservations_closure_guard" ON "reservations";
CREATE TRIGGER reservations_closure_guard BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION atrium_closure_guard();
