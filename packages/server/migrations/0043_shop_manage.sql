-- The visitor shop's own data (docs/shop.md): a cancellation rule per ticket, event and tour
-- (NULL: the shop's default; 'never'; or 'Nh', N hours before the visit), the manage-booking
-- links of orders (only a SHA-256 of each token is kept), and the shop's settings (one row).
ALTER TABLE "tickets" ADD COLUMN "cancellation_rule" text;
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_cancellation_rule" CHECK ("tickets"."cancellation_rule" is null or "tickets"."cancellation_rule" ~ '^(never|[0-9]{1,4}h)$');
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancellation_rule" text;
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_cancellation_rule" CHECK ("events"."cancellation_rule" is null or "events"."cancellation_rule" ~ '^(never|[0-9]{1,4}h)$');
--> statement-breakpoint
ALTER TABLE "tours" ADD COLUMN "cancellation_rule" text;
--> statement-breakpoint
ALTER TABLE "tours" ADD CONSTRAINT "tours_cancellation_rule" CHECK ("tours"."cancellation_rule" is null or "tours"."cancellation_rule" ~ '^(never|[0-9]{1,4}h)$');
--> statement-breakpoint
CREATE TABLE "order_manage_tokens" (
  "token_hash" text PRIMARY KEY NOT NULL,
  "order_id" integer NOT NULL REFERENCES "orders"("id"),
  "created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_manage_tokens_order" ON "order_manage_tokens" USING btree ("order_id");
--> statement-breakpoint
CREATE TABLE "shop_settings" (
  "id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
  "settings" jsonb NOT NULL,
  "updated_at" timestamp with time zone NOT NULL,
  CONSTRAINT "shop_settings_single_row" CHECK ("shop_settings"."id" = 1)
);
