-- The staff console (docs/adr/0021-staff-console.md): staff users with a role and a museum scope,
-- server-side sessions (only a SHA-256 of the session id is stored), login attempts for
-- throttling across nodes, and the append-only audit log. Box-office sales record how they were
-- paid and who sold them on the order itself.
CREATE TABLE "staff_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"museum_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"locale" text DEFAULT 'de' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"password_changed_at" timestamp with time zone NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "staff_users_role" CHECK ("staff_users"."role" in ('admin', 'manager', 'box_office', 'viewer')),
	CONSTRAINT "staff_users_locale" CHECK ("staff_users"."locale" in ('de', 'en'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_email" ON "staff_users" USING btree (lower("email"));--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"staff_user_id" integer NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_sessions_user" ON "staff_sessions" USING btree ("staff_user_id");--> statement-breakpoint
CREATE TABLE "staff_login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "staff_login_attempts_email" ON "staff_login_attempts" USING btree ("email", "at");--> statement-breakpoint
CREATE INDEX "staff_login_attempts_address" ON "staff_login_attempts" USING btree ("address", "at");--> statement-breakpoint
-- The one account every console sale and write acts through (orders.account_id is required);
-- who did it is recorded per order (staff_user_id) and in the audit log.
CREATE TABLE "staff_console" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "staff_console_singleton" CHECK ("staff_console"."singleton")
);
--> statement-breakpoint
ALTER TABLE "staff_console" ADD CONSTRAINT "staff_console_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
WITH a AS (INSERT INTO "accounts" ("class", "name", "rights") VALUES ('user', 'Staff console', '{*}') RETURNING "id")
INSERT INTO "staff_console" ("account_id") SELECT "id" FROM a;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"staff_user_id" integer,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"museum_id" integer,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_entity" ON "audit_log" USING btree ("entity_type", "entity_id");--> statement-breakpoint
CREATE INDEX "audit_log_user" ON "audit_log" USING btree ("staff_user_id", "at");--> statement-breakpoint
-- Append-only: the database itself refuses to change or remove an entry, whoever asks.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_method" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "staff_user_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method" CHECK ("orders"."payment_method" in ('cash', 'card', 'invoice'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The console's order search: by surname or email prefix, case-insensitively.
CREATE INDEX "customers_surname_lower" ON "customers" USING btree (lower("surname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_email_lower" ON "customers" USING btree (lower("email") text_pattern_ops);
