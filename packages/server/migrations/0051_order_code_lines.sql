-- Gift cards and single-purpose vouchers sold as order lines (docs/vouchers.md, ADR 0043): the
-- order item types GiftCard and Voucher. A Voucher line names its ticket in voucher_ticket_id, not
-- ticket_id, so nothing that reads ticket_id as an admission (capacity, the sellability rule and
-- the closure guard, entry, sales reports) takes a voucher sale for a visit. code_language and
-- code_recipient keep what the buyer asked for until the codes are issued at finalization. Each
-- card and voucher names the order item that sold it; a sold one keeps its sealed code (the
-- buyer downloads its PDF again through the order token), and cancelling the order voids it
-- (voided_at, and for a card a ledger entry `voided` that takes the balance to zero).
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_type";--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_type" CHECK ("type" in ('Ticket', 'Event', 'Tour', 'GiftCard', 'Voucher'));--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "voucher_ticket_id" integer REFERENCES "tickets"("id");--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "code_language" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "code_recipient" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_voucher_ticket" CHECK (("type" = 'Voucher') = ("voucher_ticket_id" is not null));--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "order_item_id" bigint REFERENCES "order_items"("id");--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "gift_cards_order_item" ON "gift_cards" ("order_item_id") WHERE "order_item_id" is not null;--> statement-breakpoint
ALTER TABLE "gift_card_ledger" DROP CONSTRAINT "gift_card_ledger_kind";--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_kind" CHECK ("kind" in ('issued', 'redeemed', 'refunded', 'expired', 'corrected', 'voided'));--> statement-breakpoint
ALTER TABLE "gift_card_ledger" DROP CONSTRAINT "gift_card_ledger_sign";--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_sign" CHECK (
	("kind" in ('issued', 'refunded') and "amount_cents" > 0) or
	("kind" in ('redeemed', 'expired', 'voided') and "amount_cents" < 0) or
	("kind" = 'corrected' and "amount_cents" <> 0 and "reason" is not null));--> statement-breakpoint
ALTER TABLE "single_purpose_vouchers" ADD COLUMN "order_item_id" bigint REFERENCES "order_items"("id");--> statement-breakpoint
ALTER TABLE "single_purpose_vouchers" ADD COLUMN "code_sealed" text;--> statement-breakpoint
ALTER TABLE "single_purpose_vouchers" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "single_purpose_vouchers_order_item" ON "single_purpose_vouchers" ("order_item_id") WHERE "order_item_id" is not null;
