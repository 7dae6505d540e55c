-- Payments as records (docs/adr/0042-payments-as-records.md, docs/payments.md): every attempt to
-- take money is a payment row, every refund a refund row, each with its own state and integer
-- amount in cents. The constraints make the worst mistakes impossible whatever the code does:
-- a provider's reference is recorded once (a webhook repeated cannot make a second payment),
-- amounts are positive, and the refunded sum of a payment never exceeds its amount
-- (refunded_cents is raised when a refund is reserved). A refund's attempts number its calls to
-- the provider: each refused attempt is retried under a new idempotency key, an attempt whose
-- outcome is unknown under the same one.
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id"),
	"provider" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"state" text NOT NULL,
	"provider_ref" text,
	"method" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"failure" text,
	CONSTRAINT "payments_amount_positive" CHECK ("amount_cents" > 0),
	CONSTRAINT "payments_state" CHECK ("state" in ('created', 'pending', 'confirmed', 'failed', 'canceled', 'refunded', 'partially_refunded')),
	CONSTRAINT "payments_provider" CHECK ("provider" in ('demo', 'desk', 'invoice', 'stripe', 'mollie', 'gift_card')),
	CONSTRAINT "payments_refunded_within" CHECK ("refunded_cents" >= 0 AND "refunded_cents" <= "amount_cents"),
	CONSTRAINT "payments_confirmed_at" CHECK (("state" in ('confirmed', 'refunded', 'partially_refunded')) = ("confirmed_at" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_ref" ON "payments" USING btree ("provider", "provider_ref");--> statement-breakpoint
CREATE INDEX "payments_order" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payments_open" ON "payments" USING btree ("created_at") WHERE "state" in ('created', 'pending');--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL REFERENCES "payments"("id"),
	"amount_cents" integer NOT NULL,
	"state" text NOT NULL,
	"provider_ref" text,
	"reason" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"failure" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("amount_cents" > 0),
	CONSTRAINT "refunds_state" CHECK ("state" in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "refunds_payment" ON "refunds" USING btree ("payment_id");
