-- The closure half of the sellability rule under the museum's schedule lock, taken SHARED (a
-- closure takes it EXCLUSIVE before it reads the live orders): the closure's reason, or null.
-- Called by atrium_closure_guard (bookings) and src/domain/orders/finalize.ts; the same test as
-- covers() and closedReason() in src/domain/schedules/rule.ts: a change there is made here too.
--
-- Bookings check the rule before they lock, from the process memo; a closure committed between
-- that check and the booking's write would be missed, hence this re-read under the lock. Items
-- and holds are inserted before their capacity claim, so the shared lock always comes before any
-- slot lock and cannot deadlock with a closure (docs/adr/0013-sellability-rule.md).
CREATE OR REPLACE FUNCTION atrium_closure_hit(p_museum integer, p_ticket integer, p_event_date integer, p_tour integer, p_start timestamptz) RETURNS text LANGUAGE plpgsql AS $$
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
