-- Promo kinds beyond percent and amount off (docs/vouchers.md): a free item, buy X get Y (the Y
-- cheapest of every X + Y at `percent` off) and a free companion (one free per `buy_quantity`
-- paid, optionally of another ticket). Single-purpose vouchers: one admission of a named ticket,
-- sold with its VAT, redeemed once (one conditional update) through an order's `codes`.
-- order_discounts keeps what each code took off which order item, for the order answer, the
-- invoice lines, the e-invoice allowances and the code-usage report. gift_cards.code_sealed keeps a
-- card's code AES-256-GCM sealed (the webhook secrets' key) so staff can print its PDF again;
-- cards issued before have none.
ALTER TABLE "gift_cards" ADD COLUMN "code_sealed" text;--> statement-breakpoint
ALTER TABLE "promo_codes" DROP CONSTRAINT "promo_codes_kind";--> statement-breakpoint
ALTER TABLE "promo_codes" DROP CONSTRAINT "promo_codes_value";--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "buy_quantity" integer;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "get_quantity" integer;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "companion_ticket_id" integer REFERENCES "tickets"("id");--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_kind" CHECK ("kind" in ('percent', 'amount', 'free_item', 'buy_x_get_y', 'free_companion'));--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_value" CHECK (
	("kind" = 'percent' and "percent" between 1 and 100 and "amount_cents" is null and "buy_quantity" is null and "get_quantity" is null) or
	("kind" = 'amount' and "amount_cents" > 0 and "percent" is null and "cap_cents" is null and "buy_quantity" is null and "get_quantity" is null) or
	("kind" = 'free_item' and "get_quantity" >= 1 and "percent" is null and "amount_cents" is null and "buy_quantity" is null) or
	("kind" = 'buy_x_get_y' and "buy_quantity" >= 1 and "get_quantity" >= 1 and "percent" between 1 and 100 and "amount_cents" is null) or
	("kind" = 'free_companion' and "buy_quantity" >= 1 and "percent" is null and "amount_cents" is null and "get_quantity" is null));--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_companion" CHECK ("companion_ticket_id" is null or "kind" = 'free_companion');--> statement-breakpoint
CREATE TABLE "single_purpose_vouchers" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"code_last4" text NOT NULL,
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id"),
	"price_cents" integer NOT NULL,
	"vat_pct" double precision NOT NULL,
	"currency" text NOT NULL,
	"language" text NOT NULL,
	"recipient" text,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" integer REFERENCES "orders"("id"),
	"redeemed_at" timestamp with time zone,
	"issued_by" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "single_purpose_vouchers_price" CHECK ("price_cents" >= 0),
	CONSTRAINT "single_purpose_vouchers_redeemed" CHECK (("order_id" is null) = ("redeemed_at" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "single_purpose_vouchers_code_hash" ON "single_purpose_vouchers" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "single_purpose_vouchers_last4" ON "single_purpose_vouchers" USING btree ("code_last4");--> statement-breakpoint
CREATE TABLE "order_discounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id"),
	"order_item_id" integer NOT NULL REFERENCES "order_items"("id"),
	"promo_code_id" integer REFERENCES "promo_codes"("id"),
	"voucher_id" integer REFERENCES "single_purpose_vouchers"("id"),
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_discounts_source" CHECK (("promo_code_id" is null) <> ("voucher_id" is null)),
	CONSTRAINT "order_discounts_amount" CHECK ("amount_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX "order_discounts_order" ON "order_discounts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_discounts_promo" ON "order_discounts" USING btree ("promo_code_id");
