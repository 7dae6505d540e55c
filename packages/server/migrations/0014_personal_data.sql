-- Personal data (ADR 0015): the museum scope of customers asks "has this person an order or a
-- request in one of my museums?" and a GDPR export or erasure collects everything of one person,
-- so orders and requests are found by customer without a scan.
CREATE INDEX IF NOT EXISTS "orders_customer" ON "orders" ("customer_id") WHERE "customer_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "requests_customer" ON "requests" ("customer_id") WHERE "customer_id" IS NOT NULL;
--> statement-breakpoint
-- One row per erasure: when, by whom, and what was anonymised. It holds no personal data itself
-- (the customer row keeps its id, so the invoice and order records still point to it).
CREATE TABLE IF NOT EXISTS "customer_erasures" (
  "id" serial PRIMARY KEY,
  "customer_id" integer NOT NULL REFERENCES "customers" ("id"),
  "erased_by_account_id" integer NOT NULL,
  "erased_at" timestamp with time zone NOT NULL,
  "summary" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "customer_erasures_customer" ON "customer_erasures" ("customer_id");
