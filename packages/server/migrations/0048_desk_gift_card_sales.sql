-- Gift cards sold at the box office (src/domain/staff/deskGiftCard.ts): who sold the card, for how
-- much and paid how. The sale of a card is not an order (no VAT, no items), so this row is what
-- puts its money into the cashier's cash closing. One row per card, only ever inserted; the sale
-- form's key is unique, so a form sent twice sells one card.
CREATE TABLE "desk_gift_card_sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"gift_card_id" integer NOT NULL REFERENCES "gift_cards"("id"),
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id"),
	"method" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"sale_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "desk_gift_card_sales_method" CHECK ("method" in ('cash', 'card')),
	CONSTRAINT "desk_gift_card_sales_amount" CHECK ("amount_cents" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "desk_gift_card_sales_card" ON "desk_gift_card_sales" ("gift_card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "desk_gift_card_sales_key" ON "desk_gift_card_sales" ("sale_key");--> statement-breakpoint
CREATE INDEX "desk_gift_card_sales_staff" ON "desk_gift_card_sales" ("staff_user_id", "created_at");
