-- Schedules (docs/adr/0013-sellability-rule.md): dated opening-hour seasons, closures and
-- per-slot capacity overrides. All three are master data: every change bumps catalog_version and
-- notifies, so the per-process memo that the sellability rule reads from is cleared on every node.
-- Overlap of seasons and the scope ids of closures are checked by the domain verbs (under the
-- museum's row lock), which answer with a field error; the checks here are the last line.
CREATE TABLE opening_seasons (
  id serial PRIMARY KEY,
  museum_id integer NOT NULL REFERENCES museums(id) ON DELETE CASCADE,
  start_date date NOT NULL,
  end_date date NOT NULL,
  hours jsonb NOT NULL,
  CONSTRAINT opening_seasons_range CHECK (end_date >= start_date)
);
--> statement-breakpoint
CREATE INDEX opening_seasons_museum ON opening_seasons (museum_id, start_date);
--> statement-breakpoint
CREATE TABLE closures (
  id serial PRIMARY KEY,
  museum_id integer NOT NULL REFERENCES museums(id),
  start_date date NOT NULL,
  end_date date NOT NULL,
  start_time integer,
  end_time integer,
  ticket_ids integer[] NOT NULL DEFAULT '{}',
  quota_ids integer[] NOT NULL DEFAULT '{}',
  event_ids integer[] NOT NULL DEFAULT '{}',
  tour_ids integer[] NOT NULL DEFAULT '{}',
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT closures_range CHECK (end_date >= start_date),
  CONSTRAINT closures_times CHECK ((start_time IS NULL OR start_time BETWEEN 0 AND 1440) AND (end_time IS NULL OR end_time BETWEEN 0 AND 1440))
);
--> statement-breakpoint
CREATE INDEX closures_museum ON closures (museum_id, end_date);
--> statement-breakpoint
CREATE TABLE quota_slot_overrides (
  quota_id integer NOT NULL REFERENCES quotas(id) ON DELETE CASCADE,
  slot_start timestamptz NOT NULL,
  capacity integer NOT NULL,
  PRIMARY KEY (quota_id, slot_start),
  CONSTRAINT quota_slot_overrides_capacity CHECK (capacity >= 0)
);
--> statement-breakpoint
CREATE TRIGGER opening_seasons_catalog_version AFTER INSERT OR UPDATE OR DELETE ON opening_seasons FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER closures_catalog_version AFTER INSERT OR UPDATE OR DELETE ON closures FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
--> statement-breakpoint
CREATE TRIGGER quota_slot_overrides_catalog_version AFTER INSERT OR UPDATE OR DELETE ON quota_slot_overrides FOR EACH STATEMENT EXECUTE FUNCTION atrium_bump_catalog_version();
