-- Device cookies for the console sign-in (src/domain/staff/devices.ts): a browser that signed in to
-- an account before is not subject to that account's lockout, so others' failures never refuse the
-- right password there. Only the SHA-256 of the cookie is stored; one browser may be trusted for
-- several accounts (a shared box-office computer). Failures made with a trusted device are counted
-- per device, so a stolen device cookie has a lockout of its own.
CREATE TABLE "staff_devices" (
	"id_hash" text NOT NULL,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("id_hash", "staff_user_id")
);--> statement-breakpoint
CREATE INDEX "staff_devices_user" ON "staff_devices" USING btree ("staff_user_id");--> statement-breakpoint
ALTER TABLE "staff_login_attempts" ADD COLUMN "device" text;--> statement-breakpoint
CREATE INDEX "staff_login_attempts_device" ON "staff_login_attempts" USING btree ("device", "at") WHERE "device" IS NOT NULL;
