-- Entry control (docs/adr/0017-entry-control.md): scanner accounts, per-ticket entry rules, every
-- scan stored, and one state row per scanned barcode that the scan transaction keeps.
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_class";
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_class" CHECK ("accounts"."class" in ('public', 'user', 'reseller', 'entry'));
--> statement-breakpoint
CREATE TABLE "entry_rules" (
	"ticket_id" integer PRIMARY KEY NOT NULL REFERENCES "tickets"("id"),
	"entries_allowed" integer DEFAULT 1 NOT NULL,
	"reentry" boolean DEFAULT false NOT NULL,
	"early_minutes" integer,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "entry_rules_entries" CHECK ("entry_rules"."entries_allowed" between 1 and 1000),
	CONSTRAINT "entry_rules_early" CHECK ("entry_rules"."early_minutes" is null or "entry_rules"."early_minutes" between 0 and 1440)
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL REFERENCES "accounts"("id"),
	"device_scan_id" text,
	"barcode" text NOT NULL,
	"barcode_id" bigint REFERENCES "barcodes"("id"),
	"museum_id" integer,
	"order_id" integer,
	"order_item_id" bigint,
	"direction" text NOT NULL,
	"location" text,
	"people_count" integer NOT NULL,
	"result" text NOT NULL,
	"gate_result" text NOT NULL,
	"message" text NOT NULL,
	"entries_used" integer NOT NULL,
	"entries_allowed" integer NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"revised_at" timestamp with time zone,
	CONSTRAINT "scans_direction" CHECK ("scans"."direction" in ('entry', 'exit')),
	CONSTRAINT "scans_result" CHECK ("scans"."result" in ('valid', 'already_used', 'not_yet_valid', 'expired', 'cancelled', 'wrong_museum', 'unknown')),
	CONSTRAINT "scans_people" CHECK ("scans"."people_count" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "scans_device_scan" ON "scans" USING btree ("account_id", "device_scan_id") WHERE "scans"."device_scan_id" is not null;
--> statement-breakpoint
CREATE INDEX "scans_barcode" ON "scans" USING btree ("barcode_id", "scanned_at") WHERE "scans"."barcode_id" is not null;
--> statement-breakpoint
CREATE INDEX "scans_museum_time" ON "scans" USING btree ("museum_id", "scanned_at");
--> statement-breakpoint
CREATE INDEX "scans_code" ON "scans" USING btree ("barcode");
--> statement-breakpoint
CREATE TABLE "entry_states" (
	"barcode_id" bigint PRIMARY KEY NOT NULL REFERENCES "barcodes"("id"),
	"order_item_id" bigint NOT NULL,
	"museum_id" integer NOT NULL,
	"entries_used" integer DEFAULT 0 NOT NULL,
	"inside_people" integer DEFAULT 0 NOT NULL,
	"last_entry_at" timestamp with time zone,
	"last_scan_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "entry_states_item" ON "entry_states" USING btree ("order_item_id");
--> statement-breakpoint
CREATE INDEX "entry_states_inside" ON "entry_states" USING btree ("museum_id", "last_entry_at") WHERE "entry_states"."inside_people" > 0;
