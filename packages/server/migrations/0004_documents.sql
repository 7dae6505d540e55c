CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"order_id" integer,
	"request_id" integer,
	"account_id" integer NOT NULL,
	"museum_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"content" "bytea",
	"sha256" text,
	"generation" integer DEFAULT 1 NOT NULL,
	"invoice_number" integer,
	"note" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"available_until" timestamp with time zone NOT NULL,
	"purged_at" timestamp with time zone,
	CONSTRAINT "documents_invoiceNumber_unique" UNIQUE("invoice_number"),
	CONSTRAINT "documents_kind" CHECK ("documents"."kind" in ('ticket', 'invoice', 'confirmation', 'attachment')),
	CONSTRAINT "documents_status" CHECK ("documents"."status" in ('processing', 'available', 'rejected', 'expired')),
	CONSTRAINT "documents_owner" CHECK ("documents"."order_id" is not null or "documents"."request_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "invoice_counter" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counter_single_row" CHECK ("invoice_counter"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_order_kind" ON "documents" USING btree ("order_id","kind") WHERE "documents"."kind" <> 'attachment';--> statement-breakpoint
CREATE INDEX "documents_request" ON "documents" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "documents_account" ON "documents" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "documents_purge" ON "documents" USING btree ("available_until") WHERE "documents"."purged_at" is null;