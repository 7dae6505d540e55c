-- Set-password links of staff users (src/domain/staff/passwordLinks.ts): an admin's password reset
-- or a new user made in the console gives a link instead of a shown password. Only the SHA-256 of
-- the link's token is stored; a link works once, until it expires, and at most one per user is
-- live (a new reset deletes the one before).
CREATE TABLE "staff_password_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "staff_password_links_user" ON "staff_password_links" USING btree ("staff_user_id");
