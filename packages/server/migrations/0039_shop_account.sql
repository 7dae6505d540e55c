-- The visitor shop (/shop) sells through one account of its own, as the staff console does
-- (orders.account_id and reservations.account_id are required). The account has no tokens; the
-- shop transport acts through it with the 'shop' principal (src/domain/shop/principal.ts).
CREATE TABLE "shop_account" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "shop_account_singleton" CHECK ("shop_account"."singleton")
);
--> statement-breakpoint
ALTER TABLE "shop_account" ADD CONSTRAINT "shop_account_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
WITH a AS (INSERT INTO "accounts" ("class", "name") VALUES ('public', 'Web shop') RETURNING "id")
INSERT INTO "shop_account" ("account_id") SELECT "id" FROM a;
