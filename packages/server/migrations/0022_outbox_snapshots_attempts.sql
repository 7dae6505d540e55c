-- Outbox: event data as it was when the event happened, and one send per attempt
-- (docs/adr/0023-event-snapshots-delivery-claims.md).
--
-- 1. Snapshots. An order event used to be rendered when the dispatcher got to it, so an
-- `order.finalized` dispatched after a cancellation showed the cancelled order. Now the order's
-- rows (order, items with zone, event, barcodes and entries used, documents) are copied into the
-- event when the transaction that recorded it commits: a deferred constraint trigger runs at
-- COMMIT, after every statement of the transaction, so it sees the finished change (items and
-- barcodes written after the event row by order_place, documents queued after finalize) on every
-- path that records order events (order_place and its batches, finalize, cancel, expiry) without
-- changing those writers. notify/snapshot.ts turns the rows into the API's order view.
ALTER TABLE "outbox_events" ADD COLUMN "snapshot" jsonb;--> statement-breakpoint
CREATE FUNCTION order_snapshot(p_id integer) RETURNS jsonb LANGUAGE sql STABLE AS $$
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
  FROM orders o WHERE o.id = p_id
$$;--> statement-breakpoint
CREATE FUNCTION events_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE outbox_events SET snapshot = order_snapshot(NEW.subject_id) WHERE id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "outbox_events_snapshot" AFTER INSERT ON "outbox_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.subject_type = 'order' AND NEW.snapshot IS NULL) EXECUTE FUNCTION events_snapshot();--> statement-breakpoint
-- 2. One send per attempt. A delivery is claimed before its POST (sending_until: the claim's
-- end, after which a crashed sender's claim lapses) and every attempt has its number, unique per
-- delivery: two jobs holding the same delivery (a manual retry while one is in flight, a queue
-- retry of a job whose result could not be written) cannot both send the same attempt.
ALTER TABLE "webhook_deliveries" ADD COLUMN "sending_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "attempt_no" integer;--> statement-breakpoint
UPDATE "webhook_attempts" a SET "attempt_no" = n.no
  FROM (SELECT id, row_number() OVER (PARTITION BY delivery_id ORDER BY id) AS no FROM webhook_attempts) n WHERE n.id = a.id;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "attempt_no" SET NOT NULL;--> statement-breakpoint
-- Claimed, not yet answered: the outcome is written after the POST.
ALTER TABLE "webhook_attempts" ALTER COLUMN "duration_ms" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_delivery_attempt" ON "webhook_attempts" USING btree ("delivery_id", "attempt_no");
