CREATE TABLE "request_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"tour_id" integer NOT NULL,
	"language_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"foreign_id" text,
	"status" text NOT NULL,
	"date" date NOT NULL,
	"participants" integer NOT NULL,
	"companions" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"customer_id" integer,
	"contact" jsonb,
	"museum_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"order_id" integer,
	"decline_reason" text,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "requests_status" CHECK ("requests"."status" in ('pending', 'accepted', 'declined', 'withdrawn')),
	CONSTRAINT "requests_participants" CHECK ("requests"."participants" > 0),
	CONSTRAINT "requests_companions" CHECK ("requests"."companions" >= 0)
);
--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_tour_id_tours_id_fk" FOREIGN KEY ("tour_id") REFERENCES "public"."tours"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_items_request" ON "request_items" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "requests_account_foreign_id" ON "requests" USING btree ("account_id","foreign_id");--> statement-breakpoint
CREATE INDEX "requests_updated" ON "requests" USING btree ("updated_at");