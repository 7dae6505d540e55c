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
  -- The period as instants, computed by the domain from the museum's zone (DST-correct, the same
  -- arithmetic as every slot), so the guard below compares exactly what the rule compares.
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
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
--> statement-breakpoint
-- The race guard of the sellability rule (docs/adr/0013-sellability-rule.md). Bookings check the
-- rule before they lock (domain/schedules/rule.ts, from the process memo); a closure committed
-- between that check and the booking's write would be missed. So every new order item and hold
-- takes the museum's schedule lock SHARED (bookings never wait for each other) and re-reads the
-- closures under it; creating a closure takes it EXCLUSIVE before it reads the live orders.
-- Either the booking commits first (and the closure sees and lists or cancels it) or the closure
-- does (and this refuses the booking with SQLSTATE AT003, answered as CLOSED). The test is the
-- closure half of rule.ts (covers() and the overlap in closedReason()): a change there must be
-- made here too. Items and holds are inserted before their capacity claim (0006, 0010), so the
-- shared lock always comes before any slot lock and cannot deadlock with a closure.
CREATE FUNCTION atrium_closure_hit(p_museum integer, p_ticket integer, p_event_date integer, p_tour integer, p_start timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_end timestamptz;
  v_day boolean := false;
  v_quotas integer[] := '{}';
  v_event integer;
  v_reason text;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('atrium-schedule:' || p_museum, 0));
  IF NOT EXISTS (SELECT 1 FROM closures WHERE museum_id = p_museum AND ends_at > p_start - interval '1 day') THEN
    RETURN NULL;
  END IF;
  IF p_ticket IS NOT NULL THEN
    SELECT CASE WHEN t.ticket_type = 'time_slot' THEN p_start + make_interval(mins => t.entry_duration)
                ELSE p_start + make_interval(mins => t.last_entry - t.first_entry) END,
           t.ticket_type <> 'time_slot'
      INTO v_end, v_day FROM tickets t WHERE t.id = p_ticket;
    SELECT coalesce(array_agg(quota_id), '{}') INTO v_quotas FROM ticket_quotas WHERE ticket_id = p_ticket;
  ELSIF p_event_date IS NOT NULL THEN
    SELECT d.event_id, p_start + make_interval(mins => d.duration) INTO v_event, v_end FROM event_dates d WHERE d.id = p_event_date;
  ELSE
    SELECT p_start + make_interval(mins => t.duration) INTO v_end FROM tours t WHERE t.id = p_tour;
  END IF;
  SELECT coalesce(c.reason, 'closed') INTO v_reason
    FROM closures c
   WHERE c.museum_id = p_museum
     AND (cardinality(c.ticket_ids) + cardinality(c.quota_ids) + cardinality(c.event_ids) + cardinality(c.tour_ids) = 0
          OR p_ticket = ANY (c.ticket_ids) OR c.quota_ids && v_quotas OR v_event = ANY (c.event_ids) OR p_tour = ANY (c.tour_ids))
     AND CASE WHEN v_day THEN c.starts_at <= p_start AND c.ends_at >= v_end
              ELSE c.starts_at < v_end AND c.ends_at > p_start END
   ORDER BY c.id
   LIMIT 1;
  RETURN v_reason;
END $$;
--> statement-breakpoint
CREATE FUNCTION atrium_closure_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_museum integer;
  v_tour integer;
  v_reason text;
BEGIN
  IF TG_TABLE_NAME = 'order_items' THEN
    v_museum := NEW.museum_id;
    v_tour := NEW.tour_id;
  ELSIF NEW.ticket_id IS NOT NULL THEN
    SELECT museum_id INTO v_museum FROM tickets WHERE id = NEW.ticket_id;
  ELSE
    SELECT e.museum_id INTO v_museum FROM event_dates d JOIN events e ON e.id = d.event_id WHERE d.id = NEW.event_date_id;
  END IF;
  v_reason := atrium_closure_hit(v_museum, NEW.ticket_id, NEW.event_date_id, v_tour, NEW.start_at);
  IF v_reason IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'AT003', MESSAGE = v_reason;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_items_closure_guard BEFORE INSERT ON order_items FOR EACH ROW EXECUTE FUNCTION atrium_closure_guard();
--> statement-breakpoint
CREATE TRIGGER reservations_closure_guard BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION atrium_closure_guard();
