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
-- 2. One snapshot per order and transaction. An order created finalized records two events in one
-- transaction (order.created, order.finalized); both were snapshotted at the same COMMIT, so both
-- read the same rows: the first trigger to fire now takes the snapshot once and writes it to every
-- event of that order still without one from seq NEW.seq on, and the second finds its row done.
-- Rows of other transactions are not touched: committed ones got their snapshot at their own
-- COMMIT, and uncommitted ones are not visible.
CREATE OR REPLACE FUNCTION events_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s jsonb;
BEGIN
  IF EXISTS (SELECT 1 FROM outbox_events WHERE id = NEW.id AND snapshot IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  s := order_snapshot(NEW.subject_id);
  UPDATE outbox_events SET snapshot = s
   WHERE subject_type = 'order' AND subject_id = NEW.subject_id AND seq >= NEW.seq AND snapshot IS NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
-- 3. The only index on documents.order_id was the partial unique one of migration 0018 (ticket,
-- invoice and confirmation only), which a plain `order_id = $1` cannot use: every snapshot scanned
-- the whole documents table, more with every order sold. GET /orders' document loader
-- (inArray(documents.order_id), src/domain/documents/internal.ts) scanned it too.
CREATE INDEX "documents_order" ON "documents" USING btree ("order_id");
