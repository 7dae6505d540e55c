-- Gift cards (multi-purpose vouchers, docs/vouchers.md): a card's value lives in a ledger of
-- signed amounts (issued, redeemed, refunded to the card, expired, corrected by staff), and its
-- balance is kept on the card row so that a redemption is one conditional update: the check
-- gift_cards_balance_nonnegative refuses any balance below zero whatever the code computed, on
-- any number of server processes. The code itself is never stored: only its SHA-256 (for the
-- look-up) and its last four characters (for staff to tell cards apart).
CREATE TABLE "gift_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"code_last4" text NOT NULL,
	"currency" text NOT NULL,
	"initial_cents" integer NOT NULL,
	"balance_cents" integer NOT NULL,
	"language" text NOT NULL,
	"recipient" text,
	"expires_at" timestamp with time zone NOT NULL,
	"issued_by" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gift_cards_balance_nonnegative" CHECK ("balance_cents" >= 0),
	CONSTRAINT "gift_cards_initial_positive" CHECK ("initial_cents" > 0),
	CONSTRAINT "gift_cards_last4" CHECK (length("code_last4") = 4)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_code_hash" ON "gift_cards" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "gift_cards_last4" ON "gift_cards" USING btree ("code_last4");--> statement-breakpoint
CREATE TABLE "gift_card_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"gift_card_id" integer NOT NULL REFERENCES "gift_cards"("id"),
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_after_cents" integer NOT NULL,
	"payment_id" integer REFERENCES "payments"("id"),
	"refund_id" integer REFERENCES "refunds"("id"),
	"reason" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gift_card_ledger_kind" CHECK ("kind" in ('issued', 'redeemed', 'refunded', 'expired', 'corrected')),
	CONSTRAINT "gift_card_ledger_sign" CHECK (
		("kind" in ('issued', 'refunded') and "amount_cents" > 0) or
		("kind" in ('redeemed', 'expired') and "amount_cents" < 0) or
		("kind" = 'corrected' and "amount_cents" <> 0 and "reason" is not null)),
	CONSTRAINT "gift_card_ledger_balance" CHECK ("balance_after_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX "gift_card_ledger_card" ON "gift_card_ledger" USING btree ("gift_card_id", "id");--> statement-breakpoint
CREATE INDEX "gift_card_ledger_payment" ON "gift_card_ledger" USING btree ("payment_id") WHERE "payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_refund" ON "gift_card_ledger" USING btree ("refund_id") WHERE "refund_id" is not null;
