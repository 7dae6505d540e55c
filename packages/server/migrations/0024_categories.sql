-- go~mus categories (issue #15, docs/gomus-compatibility.md): an event's or tour's `category` is
-- `{"id", "name"}` and GET /events/categories, /tours/categories list them, so a category is a
-- record. go~mus keeps event categories and tour categories apart (two collections), so each row
-- has a kind and names are unique per kind. The free-text column is backfilled first: every
-- distinct text becomes a category of its kind and the record points at it, then the text goes.
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_kind" CHECK ("categories"."kind" in ('event', 'tour'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "categories_kind_name" ON "categories" USING btree ("kind","name");--> statement-breakpoint
CREATE TRIGGER categories_catalog_version AFTER INSERT OR UPDATE OR DELETE ON categories FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "category_id" integer;--> statement-breakpoint
ALTER TABLE "tours" ADD COLUMN "category_id" integer;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tours" ADD CONSTRAINT "tours_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
INSERT INTO "categories" ("kind", "name") SELECT DISTINCT 'event', "category" FROM "events" WHERE "category" IS NOT NULL ORDER BY 2;--> statement-breakpoint
INSERT INTO "categories" ("kind", "name") SELECT DISTINCT 'tour', "category" FROM "tours" WHERE "category" IS NOT NULL ORDER BY 2;--> statement-breakpoint
UPDATE "events" SET "category_id" = c."id" FROM "categories" c WHERE c."kind" = 'event' AND c."name" = "events"."category";--> statement-breakpoint
UPDATE "tours" SET "category_id" = c."id" FROM "categories" c WHERE c."kind" = 'tour' AND c."name" = "tours"."category";--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "category";--> statement-breakpoint
ALTER TABLE "tours" DROP COLUMN "category";--> statement-breakpoint
CREATE INDEX "events_category" ON "events" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "tours_category" ON "tours" USING btree ("category_id");
