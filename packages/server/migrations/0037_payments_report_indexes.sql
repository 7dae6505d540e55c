-- The payments reconciliation report (src/domain/reports/payments.ts) reads payments by the
-- instant they were confirmed and refunds done by the instant they were done (their last change),
-- over a date range of a year at most. Without these indexes each report scanned every payment
-- and refund ever made. Partial: open or failed payments and pending or failed refunds are never
-- looked up this way.
CREATE INDEX "payments_confirmed" ON "payments" USING btree ("confirmed_at") WHERE "payments"."confirmed_at" is not null;
--> statement-breakpoint
CREATE INDEX "refunds_done" ON "refunds" USING btree ("updated_at") WHERE "refunds"."state" = 'done';
