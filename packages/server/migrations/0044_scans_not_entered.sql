-- An exit of a barcode that was never admitted gets its own verdict, `not_entered`
-- (src/domain/entry/rules.ts), instead of `already_used`.
ALTER TABLE "scans" DROP CONSTRAINT "scans_result";--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_result" CHECK ("scans"."result" in ('valid', 'already_used', 'not_entered', 'not_yet_valid', 'expired', 'cancelled', 'wrong_museum', 'unknown'));
