-- The outbox (docs/adr/0018-outbox-webhooks-mail.md): every event of docs/webhooks.md is a row
-- written in the transaction of the change it reports. The dispatcher (src/jobs/events.ts) turns
-- pending rows into webhook deliveries and mails; SKIP LOCKED lets any number of nodes share it.
CREATE TABLE "outbox_events" (
	"id" text PRIMARY KEY DEFAULT ('evt_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
	"type" text NOT NULL,
	"account_id" integer,
	"museum_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"subject_type" text,
	"subject_id" integer,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatch_pending" boolean DEFAULT true NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_events_seq" ON "outbox_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "outbox_events_pending" ON "outbox_events" USING btree ("seq") WHERE "outbox_events"."dispatch_pending";--> statement-breakpoint
CREATE INDEX "outbox_events_subject" ON "outbox_events" USING btree ("subject_type", "subject_id");--> statement-breakpoint
-- An expired order is reported once, however often the sweep runs.
CREATE UNIQUE INDEX "outbox_events_order_expired_once" ON "outbox_events" USING btree ("subject_id") WHERE "outbox_events"."type" = 'order.expired';--> statement-breakpoint
-- New orders are written by SQL functions (order_place, order_place_batch, migrations 0006 and
-- 0008), often many in one transaction: a row trigger records their events in that same
-- transaction on every path without changing those functions.
CREATE FUNCTION events_order_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox_events (type, account_id, museum_ids, subject_type, subject_id, created_at)
    VALUES ('order.created', NEW.account_id, NEW.museum_ids, 'order', NEW.id, NEW.created_at);
  IF NEW.status = 'finalized' THEN
    INSERT INTO outbox_events (type, account_id, museum_ids, subject_type, subject_id, created_at)
      VALUES ('order.finalized', NEW.account_id, NEW.museum_ids, 'order', NEW.id, NEW.created_at);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_events" AFTER INSERT ON "orders" FOR EACH ROW EXECUTE FUNCTION events_order_inserted();--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL REFERENCES "accounts"("id"),
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"description" text,
	"secret_enc" text NOT NULL,
	"secret_last4" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "webhook_endpoints_account" ON "webhook_endpoints" USING btree ("account_id");--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints"("id"),
	"event_id" text NOT NULL REFERENCES "outbox_events"("id"),
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_event" ON "webhook_deliveries" USING btree ("endpoint_id", "event_id");--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" integer NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
	"attempted_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"response_excerpt" text
);--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery" ON "webhook_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL REFERENCES "outbox_events"("id"),
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"locale" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"message_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_event_kind" ON "mail_messages" USING btree ("event_id", "kind");--> statement-breakpoint
CREATE TABLE "account_notify_settings" (
	"account_id" integer PRIMARY KEY NOT NULL REFERENCES "accounts"("id"),
	"mail_enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
-- Documents become available or rejected in render and scan jobs (single guarded UPDATEs):
-- the event is written by the same statement's transaction.
CREATE FUNCTION events_document_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox_events (type, account_id, museum_ids, subject_type, subject_id)
    VALUES ('document.' || NEW.status, NEW.account_id, NEW.museum_ids, 'document', NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "documents_events" AFTER UPDATE OF "status" ON "documents" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('available', 'rejected'))
  EXECUTE FUNCTION events_document_decided();
