-- Cash closings (Kassenabschluss) per cashier and business day (src/db/schema/cash-closings.ts);
-- the trigger that keeps them unchangeable is src/db/sql/cash_closings_immutable.sql. A box-office
-- sale paid in more than one way is marked `split` on the order (its payments say how).
CREATE TABLE "cash_closings" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_user_id" integer NOT NULL,
	"business_date" date NOT NULL,
	"opening_float_cents" integer NOT NULL,
	"expected_cash_cents" integer NOT NULL,
	"counted_cash_cents" integer NOT NULL,
	"difference_cents" integer NOT NULL,
	"summary" jsonb NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"closed_by" integer NOT NULL,
	CONSTRAINT "cash_closings_amounts" CHECK ("cash_closings"."opening_float_cents" >= 0 and "cash_closings"."counted_cash_cents" >= 0 and "cash_closings"."difference_cents" = "cash_closings"."counted_cash_cents" - "cash_closings"."expected_cash_cents")
);
--> statement-breakpoint
ALTER TABLE "cash_closings" ADD CONSTRAINT "cash_closings_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cash_closings" ADD CONSTRAINT "cash_closings_closed_by_staff_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "cash_closings_user_day" ON "cash_closings" USING btree ("staff_user_id","business_date");
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_method";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method" CHECK ("orders"."payment_method" in ('cash', 'card', 'invoice', 'split'));
