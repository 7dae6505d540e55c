-- Event snapshots at the cost the booking path can carry (docs/adr/0023-event-snapshots-delivery-claims.md,
-- "Changed"). Measured with bench/booking.ts: the snapshot trigger of migration 0022 took ~80 % of
-- the orders/s, for the reasons below, all fixed here without changing what a snapshot contains.
--
-- 1. order_snapshot() was a LANGUAGE sql function. Called from the trigger's UPDATE, such a function
-- is planned afresh on every call (PostgreSQL keeps a SQL function's plan only for the statement
-- that calls it), and its five subqueries cost ~4 ms of planning per event: twice per order created
-- finalized, at COMMIT, while the group-commit batch (ADR 0010) held its slots' locks. In plpgsql
-- the statement is prepared once per connection; the same UPDATE took ~0.5–0.9 ms. Same body.
CREATE OR REPLACE FUNCTION order_snapshot(p_id integer) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
  SELECT jsonb_build_object(
    'order', to_jsonb(o),
    'items', coalesce((
      SELECT jsonb_agg(jsonb_build_object(
               'row', to_jsonb(i),
               'zone', m.time_zone,
               'event_id', ed.event_id,
               'barcodes', coalesce((SELECT jsonb_agg(jsonb_build_object('id', b.id, 'code', b.code, 'status', b.status) ORDER BY b.id)
                                       FROM barcodes b WHERE b.order_item_id = i.id), '[]'::jsonb),
               'entries_used', coalesce((SELECT sum(s.entries_used) FROM entry_states s WHERE s.order_item_id = i.id), 0))
             ORDER BY i.id)
        FROM order_items i JOIN museums m ON m.id = i.museum_id LEFT JOIN event_dates ed ON ed.id = i.event_date_id
       WHERE i.order_id = o.id), '[]'::jsonb),
    'documents', coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', d.id, 'kind', d.kind, 'status', d.status, 'filename', d.filename,
                                          'available_until', d.available_until) ORDER BY d.id)
        FROM documents d WHERE d.order_id = o.id), '[]'::jsonb))
  FROM orders o WHERE o.id = p_id);
END $$;--> statement-breakpoint
-- 2. New orders' events are written at COMMIT, with their snapshot, instead of written at INSERT and
-- updated at COMMIT. orders_events (migration 0017) fired at the INSERT into orders, before
-- order_place wrote the items, barcodes and documents, so migration 0022 had to come back at
-- COMMIT and UPDATE each event row (a second row version and four index entries per event), and
-- took the same snapshot twice for an order created finalized. Deferred, the trigger runs when the
-- order is complete: one snapshot per order, written by the INSERTs themselves, so
-- outbox_events_snapshot (WHEN snapshot IS NULL) does not fire for them. It still covers the
-- events recorded on existing orders (finalize, cancel, expiry).
-- Order of events: seq is now drawn at COMMIT for order.created/order.finalized. No writer records
-- another event of an order in the transaction that creates it (orders are created by order_place
-- alone, src/domain/orders/createOrder.ts), so an order's events keep their order.
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
END $$;--> statement-breakpoint
DROP TRIGGER "orders_events" ON "orders";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_events" AFTER INSERT ON "orders" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION events_order_inserted();--> statement-breakpoint
-- 3. The only index on documents.order_id was the partial unique one of migration 0018 (ticket,
-- invoice and confirmation only), which a plain `order_id = $1` cannot use: every snapshot scanned
-- the whole documents table, more with every order sold. GET /orders' document loader
-- (inArray(documents.order_id), src/domain/documents/internal.ts) scanned it too.
CREATE INDEX "documents_order" ON "documents" USING btree ("order_id");
