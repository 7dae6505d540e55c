-- Pictures of catalogue records (src/domain/media): one row per upload, its bytes and variants
-- in the media store under the data directory. `picture` on each catalogue table is the go~mus
-- picture object of the record's current picture (null when none): kept on the row itself, so
-- attaching a picture is an update of the record, which bumps the catalogue version and every
-- cached answer and row fragment of it (keyed by the row's version) follows at once.
CREATE TABLE media (
  id serial PRIMARY KEY,
  account_id integer REFERENCES accounts (id),
  museum_id integer NOT NULL REFERENCES museums (id),
  target_type text NOT NULL,
  target_id integer NOT NULL,
  title text,
  description text,
  copyright_info text,
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  byte_size integer NOT NULL,
  sha256 text NOT NULL,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT media_target_type CHECK (target_type IN ('museum', 'exhibition', 'ticket', 'event', 'tour'))
);
--> statement-breakpoint
CREATE INDEX media_account ON media (account_id);
--> statement-breakpoint
CREATE INDEX media_target ON media (target_type, target_id);
--> statement-breakpoint
ALTER TABLE museums ADD COLUMN picture jsonb;
--> statement-breakpoint
ALTER TABLE exhibitions ADD COLUMN picture jsonb;
--> statement-breakpoint
ALTER TABLE tickets ADD COLUMN picture jsonb;
--> statement-breakpoint
ALTER TABLE events ADD COLUMN picture jsonb;
--> statement-breakpoint
ALTER TABLE tours ADD COLUMN picture jsonb;
