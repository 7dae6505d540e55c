-- OCTO bookings (docs/octo.md): what a distribution platform says about a booking that the order
-- itself has no column for (its uuid, unit item uuids, contact, the OCTO ids it was made with).
-- The order is the booking's capacity, money and tickets; this row only maps OCTO onto it, so a
-- reseller's OCTO sale is the same order record as its go~mus-API orders. Keyed by the reseller's
-- account and the booking uuid: a reserve repeated with the same uuid finds this row.
CREATE TABLE "octo_bookings" (
	"account_id" integer NOT NULL REFERENCES "accounts"("id"),
	"uuid" text NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id"),
	"product_id" text NOT NULL,
	"option_id" text NOT NULL,
	"availability_id" text NOT NULL,
	"unit_items" jsonb NOT NULL,
	"contact" jsonb NOT NULL,
	"notes" text,
	"reseller_reference" text,
	"test_mode" boolean NOT NULL DEFAULT false,
	"cancellation" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("account_id", "uuid")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "octo_bookings_order" ON "octo_bookings" USING btree ("order_id");
--> statement-breakpoint
CREATE INDEX "octo_bookings_reseller_reference" ON "octo_bookings" USING btree ("account_id", "reseller_reference");
--> statement-breakpoint
-- Test bookings (`Octo-Env: test`) are real orders kept out of the sales reports.
ALTER TABLE "orders" ADD COLUMN "test_mode" boolean NOT NULL DEFAULT false;
