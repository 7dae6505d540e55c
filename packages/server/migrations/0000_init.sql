CREATE TABLE "instance" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"instance_id" text NOT NULL,
	"catalog_version" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instance_single_row" CHECK ("instance"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"class" text NOT NULL,
	"name" text NOT NULL,
	"museum_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"rights" text[] DEFAULT '{}'::text[] NOT NULL,
	"rate_limit_per_minute" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "accounts_class" CHECK ("accounts"."class" in ('public', 'user', 'reseller'))
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"replaced_by_id" integer,
	CONSTRAINT "api_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "event_dates" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"duration" integer DEFAULT 60 NOT NULL,
	"seats_min" integer DEFAULT 1 NOT NULL,
	"seats_max" integer NOT NULL,
	"max_per_registration" integer,
	"language_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"museum_id" integer NOT NULL,
	"exhibition_id" integer,
	"title" jsonb NOT NULL,
	"sub_title" jsonb,
	"description" jsonb,
	"category" text,
	"featured" boolean DEFAULT false NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"reseller_price_cents" integer,
	"vat_pct" double precision DEFAULT 0 NOT NULL,
	"tax_included" boolean DEFAULT true NOT NULL,
	"sales_channels" text[] DEFAULT '{shop,reseller}'::text[] NOT NULL,
	"reseller_account_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"museum_id" integer NOT NULL,
	"title" jsonb NOT NULL,
	"sub_title" jsonb,
	"description" jsonb,
	"featured" boolean DEFAULT false NOT NULL,
	"time_frames" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "languages_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "museums" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" jsonb NOT NULL,
	"sub_title" jsonb,
	"description" jsonb,
	"time_zone" text NOT NULL,
	"location" jsonb,
	"opening_hours" jsonb NOT NULL,
	"opening_exceptions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quota_overrides" (
	"quota_id" integer NOT NULL,
	"date" date NOT NULL,
	"capacity" integer,
	CONSTRAINT "quota_overrides_quota_id_date_pk" PRIMARY KEY("quota_id","date")
);
--> statement-breakpoint
CREATE TABLE "quotas" (
	"id" serial PRIMARY KEY NOT NULL,
	"museum_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"capacity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotas_kind" CHECK ("quotas"."kind" in ('slot', 'day')),
	CONSTRAINT "quotas_capacity" CHECK ("quotas"."capacity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ticket_quotas" (
	"ticket_id" integer NOT NULL,
	"quota_id" integer NOT NULL,
	CONSTRAINT "ticket_quotas_ticket_id_quota_id_pk" PRIMARY KEY("ticket_id","quota_id")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"museum_id" integer NOT NULL,
	"exhibition_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"title" jsonb NOT NULL,
	"sub_title" jsonb,
	"description" jsonb,
	"ticket_type" text NOT NULL,
	"price_cents" integer NOT NULL,
	"reseller_price_cents" integer,
	"vat_pct" double precision DEFAULT 0 NOT NULL,
	"tax_included" boolean DEFAULT true NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"first_entry" integer NOT NULL,
	"last_entry" integer NOT NULL,
	"entry_duration" integer,
	"min_persons" integer DEFAULT 1 NOT NULL,
	"max_persons" integer DEFAULT 100 NOT NULL,
	"attendees" text DEFAULT 'none' NOT NULL,
	"sales_channels" text[] DEFAULT '{shop,reseller}'::text[] NOT NULL,
	"reseller_account_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"valid_from" date,
	"valid_until" date,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tickets_type" CHECK ("tickets"."ticket_type" in ('time_slot', 'normal')),
	CONSTRAINT "tickets_attendees" CHECK ("tickets"."attendees" in ('none', 'optional', 'required')),
	CONSTRAINT "tickets_price" CHECK ("tickets"."price_cents" >= 0),
	CONSTRAINT "tickets_entry" CHECK ("tickets"."first_entry" >= 0 and "tickets"."last_entry" >= "tickets"."first_entry" and "tickets"."last_entry" < 1440),
	CONSTRAINT "tickets_slot" CHECK (("tickets"."ticket_type" = 'time_slot') = ("tickets"."entry_duration" is not null))
);
--> statement-breakpoint
CREATE TABLE "tour_languages" (
	"tour_id" integer NOT NULL,
	"language_id" integer NOT NULL,
	CONSTRAINT "tour_languages_tour_id_language_id_pk" PRIMARY KEY("tour_id","language_id")
);
--> statement-breakpoint
CREATE TABLE "tours" (
	"id" serial PRIMARY KEY NOT NULL,
	"museum_id" integer NOT NULL,
	"exhibition_id" integer,
	"title" jsonb NOT NULL,
	"sub_title" jsonb,
	"description" jsonb,
	"category" text,
	"featured" boolean DEFAULT false NOT NULL,
	"duration" integer NOT NULL,
	"min_persons" integer DEFAULT 1 NOT NULL,
	"max_persons" integer NOT NULL,
	"max_concurrent" integer DEFAULT 1 NOT NULL,
	"window_start" integer DEFAULT 600 NOT NULL,
	"window_end" integer DEFAULT 960 NOT NULL,
	"step" integer DEFAULT 15 NOT NULL,
	"price_cents" integer NOT NULL,
	"reseller_price_cents" integer,
	"pricing" text DEFAULT 'group' NOT NULL,
	"vat_pct" double precision DEFAULT 0 NOT NULL,
	"tax_included" boolean DEFAULT true NOT NULL,
	"sales_channels" text[] DEFAULT '{shop,reseller}'::text[] NOT NULL,
	"reseller_account_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tours_pricing" CHECK ("tours"."pricing" in ('group', 'person'))
);
--> statement-breakpoint
CREATE TABLE "barcodes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_item_id" bigint NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "barcodes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "capacity_allocations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"resource" text NOT NULL,
	"resource_id" integer NOT NULL,
	"slot_start" timestamp with time zone NOT NULL,
	"slot_end" timestamp with time zone,
	"quantity" integer NOT NULL,
	"reservation_id" bigint,
	"order_item_id" bigint,
	"expires_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "capacity_allocations_resource" CHECK ("capacity_allocations"."resource" in ('quota', 'event_date', 'tour')),
	CONSTRAINT "capacity_allocations_quantity" CHECK ("capacity_allocations"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"foreign_id" text,
	"salutation" text,
	"title" text,
	"name" text NOT NULL,
	"surname" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"institution" text,
	"street" text,
	"zip" text,
	"city" text,
	"country" text,
	"locale" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"response_headers" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"type" text NOT NULL,
	"museum_id" integer NOT NULL,
	"ticket_id" integer,
	"event_date_id" integer,
	"tour_id" integer,
	"language_id" integer,
	"quantity" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"vat_pct" double precision NOT NULL,
	"tax_included" boolean NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"attendees" jsonb,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "order_items_type" CHECK ("order_items"."type" in ('Ticket', 'Event', 'Tour')),
	CONSTRAINT "order_items_status" CHECK ("order_items"."status" in ('active', 'cancelled')),
	CONSTRAINT "order_items_quantity" CHECK ("order_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"foreign_id" text,
	"token" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"customer_id" integer,
	"comment" text,
	"reference" text,
	"total_price_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"museum_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"finalized_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "orders_token_unique" UNIQUE("token"),
	CONSTRAINT "orders_status" CHECK ("orders"."status" in ('pending', 'finalized', 'cancelled', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"account_id" integer NOT NULL,
	"ticket_id" integer,
	"event_date_id" integer,
	"quantity" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"lifetime_ends_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"consumed_by_order_id" integer,
	CONSTRAINT "reservations_token_unique" UNIQUE("token"),
	CONSTRAINT "reservations_target" CHECK (("reservations"."ticket_id" is null) <> ("reservations"."event_date_id" is null)),
	CONSTRAINT "reservations_quantity" CHECK ("reservations"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_dates" ADD CONSTRAINT "event_dates_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_dates" ADD CONSTRAINT "event_dates_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_museum_id_museums_id_fk" FOREIGN KEY ("museum_id") REFERENCES "public"."museums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_exhibition_id_exhibitions_id_fk" FOREIGN KEY ("exhibition_id") REFERENCES "public"."exhibitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibitions" ADD CONSTRAINT "exhibitions_museum_id_museums_id_fk" FOREIGN KEY ("museum_id") REFERENCES "public"."museums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_overrides" ADD CONSTRAINT "quota_overrides_quota_id_quotas_id_fk" FOREIGN KEY ("quota_id") REFERENCES "public"."quotas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotas" ADD CONSTRAINT "quotas_museum_id_museums_id_fk" FOREIGN KEY ("museum_id") REFERENCES "public"."museums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_quotas" ADD CONSTRAINT "ticket_quotas_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_quotas" ADD CONSTRAINT "ticket_quotas_quota_id_quotas_id_fk" FOREIGN KEY ("quota_id") REFERENCES "public"."quotas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_museum_id_museums_id_fk" FOREIGN KEY ("museum_id") REFERENCES "public"."museums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tour_languages" ADD CONSTRAINT "tour_languages_tour_id_tours_id_fk" FOREIGN KEY ("tour_id") REFERENCES "public"."tours"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tour_languages" ADD CONSTRAINT "tour_languages_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tours" ADD CONSTRAINT "tours_museum_id_museums_id_fk" FOREIGN KEY ("museum_id") REFERENCES "public"."museums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tours" ADD CONSTRAINT "tours_exhibition_id_exhibitions_id_fk" FOREIGN KEY ("exhibition_id") REFERENCES "public"."exhibitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barcodes" ADD CONSTRAINT "barcodes_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capacity_allocations" ADD CONSTRAINT "capacity_allocations_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capacity_allocations" ADD CONSTRAINT "capacity_allocations_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_tour_id_tours_id_fk" FOREIGN KEY ("tour_id") REFERENCES "public"."tours"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_event_date_id_event_dates_id_fk" FOREIGN KEY ("event_date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_account" ON "api_tokens" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "event_dates_event_start" ON "event_dates" USING btree ("event_id","start_at");--> statement-breakpoint
CREATE INDEX "event_dates_start" ON "event_dates" USING btree ("start_at");--> statement-breakpoint
CREATE INDEX "events_museum" ON "events" USING btree ("museum_id");--> statement-breakpoint
CREATE INDEX "exhibitions_museum" ON "exhibitions" USING btree ("museum_id");--> statement-breakpoint
CREATE INDEX "ticket_quotas_quota" ON "ticket_quotas" USING btree ("quota_id");--> statement-breakpoint
CREATE INDEX "tickets_museum" ON "tickets" USING btree ("museum_id");--> statement-breakpoint
CREATE INDEX "tours_museum" ON "tours" USING btree ("museum_id");--> statement-breakpoint
CREATE INDEX "barcodes_item" ON "barcodes" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "capacity_allocations_live" ON "capacity_allocations" USING btree ("resource","resource_id","slot_start") WHERE "capacity_allocations"."released_at" is null;--> statement-breakpoint
CREATE INDEX "capacity_allocations_reservation" ON "capacity_allocations" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "capacity_allocations_order_item" ON "capacity_allocations" USING btree ("order_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_account_foreign_id" ON "customers" USING btree ("account_id","foreign_id");--> statement-breakpoint
CREATE INDEX "customers_email" ON "customers" USING btree ("email");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "order_items_order" ON "order_items" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_account_foreign_id" ON "orders" USING btree ("account_id","foreign_id");--> statement-breakpoint
CREATE INDEX "orders_account_created" ON "orders" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_updated" ON "orders" USING btree ("updated_at");