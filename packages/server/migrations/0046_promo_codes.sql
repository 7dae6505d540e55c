-- Promo codes (docs/vouchers.md): a discount (percent with an optional cap, or an amount) with its
-- limits. `uses` is kept on the row so that taking a use is one conditional update; the check
-- promo_codes_uses_within refuses any count past max_uses whatever the code computed, on any
-- number of server processes. promo_code_uses records which order took a use (and for whom).
CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_cents" integer,
	"cap_cents" integer,
	"ticket_ids" integer[] DEFAULT '{}' NOT NULL,
	"event_ids" integer[] DEFAULT '{}' NOT NULL,
	"tour_ids" integer[] DEFAULT '{}' NOT NULL,
	"channels" text[] DEFAULT '{}' NOT NULL,
	"sale_from" timestamp with time zone,
	"sale_until" timestamp with time zone,
	"visit_from" date,
	"visit_until" date,
	"min_quantity" integer DEFAULT 1 NOT NULL,
	"max_uses" integer,
	"max_uses_per_email" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"partner_account_id" integer REFERENCES "accounts"("id"),
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "promo_codes_kind" CHECK ("kind" in ('percent', 'amount')),
	CONSTRAINT "promo_codes_value" CHECK (
		("kind" = 'percent' and "percent" between 1 and 100 and "amount_cents" is null) or
		("kind" = 'amount' and "amount_cents" > 0 and "percent" is null and "cap_cents" is null)),
	CONSTRAINT "promo_codes_uses_within" CHECK ("uses" >= 0 and ("max_uses" is null or "uses" <= "max_uses")),
	CONSTRAINT "promo_codes_min_quantity" CHECK ("min_quantity" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code" ON "promo_codes" USING btree ("code");--> statement-breakpoint
CREATE TABLE "promo_code_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"promo_code_id" integer NOT NULL REFERENCES "promo_codes"("id"),
	"order_id" integer NOT NULL REFERENCES "orders"("id"),
	"email" text,
	"discount_cents" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "promo_code_uses_order" ON "promo_code_uses" USING btree ("promo_code_id", "order_id");--> statement-breakpoint
CREATE INDEX "promo_code_uses_email" ON "promo_code_uses" USING btree ("promo_code_id", "email");
