-- The .eml files of an erased customer (src/notify/mail/files.ts): without SMTP_URL each visitor
-- mail is a file in the data directory, with the person's name, address, barcodes and invoice.
-- The worker deletes an erased customer's files after the erasure and records it here; erasures
-- from before this column are handled once, on the first run.
ALTER TABLE customer_erasures ADD COLUMN mail_files_deleted_at timestamptz;
--> statement-breakpoint
CREATE INDEX customer_erasures_mail_files_pending ON customer_erasures (id) WHERE mail_files_deleted_at IS NULL;
