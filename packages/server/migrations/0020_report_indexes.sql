-- Sales reports (src/domain/reports) read orders by the instant they were finalized and order
-- items by the instant they were cancelled, over a date range of a year at most. Without these
-- indexes each report scanned every order ever placed. Partial: pending and expired orders and
-- uncancelled items are never looked up this way, so the indexes stay small.
CREATE INDEX "orders_finalized" ON "orders" USING btree ("finalized_at") WHERE "orders"."finalized_at" is not null;
--> statement-breakpoint
CREATE INDEX "order_items_cancelled" ON "order_items" USING btree ("cancelled_at") WHERE "order_items"."cancelled_at" is not null;
