-- The part of a capacity claim that must run under the slot locks, in one round trip: lock the
-- keys (sorted by the caller), release the holds being converted, then per demand check what is
-- used against capacity and insert its allocation. Returns 0, or the 1-based index of the first
-- demand that does not fit (its predecessors' rows deleted again). Called by
-- src/domain/capacity/claimCapacity.ts, and by order_place and reservation_place.
--
-- "Used" is the rule of liveAt() and peakConcurrency() in src/domain/capacity/used.ts: a row
-- counts while released_at is null and it is permanent or not yet expired at p_now; quota slots
-- and event dates read their permanent part from capacity_totals; tours count the peak of runs
-- overlapping the new run. A null p_lock_timeout skips the locks (test-only control runs). While
-- the transaction sets atrium.claim_nowait (order_place_batch), a busy lock fails at once with
-- SQLSTATE AT002 instead of waiting (docs/adr/0009-booking-write-path.md).
CREATE OR REPLACE FUNCTION capacity_claim(
  p_keys bigint[],
  p_lock_timeout text,
  p_now timestamptz,
  p_release bigint[],
  p_resource text[],
  p_resource_id integer[],
  p_slot_start timestamptz[],
  p_slot_end timestamptz[],
  p_quantity integer[],
  p_capacity integer[],
  p_reservation_id bigint[],
  p_order_item_id bigint[],
  p_expires_at timestamptz[],
  p_race_window_ms integer
) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  used integer;
  inserted bigint[] := '{}';
  new_id bigint;
BEGIN
  -- A null timeout skips the locks: test-only control runs that show the oversell they prevent.
  IF p_lock_timeout IS NOT NULL THEN
    PERFORM set_config('lock_timeout', p_lock_timeout, true);
    FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
      IF current_setting('atrium.claim_nowait', true) = 'on' THEN
        IF NOT pg_try_advisory_xact_lock(p_keys[i]) THEN
          RAISE EXCEPTION 'capacity lock busy' USING ERRCODE = 'AT002';
        END IF;
      ELSE
        PERFORM pg_advisory_xact_lock(p_keys[i]);
      END IF;
    END LOOP;
  END IF;

  IF coalesce(array_length(p_release, 1), 0) > 0 THEN
    UPDATE capacity_allocations SET released_at = p_now
     WHERE released_at IS NULL AND reservation_id = ANY (p_release);
  END IF;

  FOR i IN 1 .. coalesce(array_length(p_resource, 1), 0) LOOP
    IF p_resource[i] = 'tour' THEN
      SELECT coalesce(max(n), 0) INTO used FROM (
        SELECT p.t, sum(r.quantity) AS n
          FROM (
            SELECT p_slot_start[i] AS t
            UNION
            SELECT ca.slot_start FROM capacity_allocations ca
             WHERE ca.resource = 'tour' AND ca.resource_id = p_resource_id[i]
               AND ca.slot_start > p_slot_start[i] AND ca.slot_start < p_slot_end[i]
               AND ca.released_at IS NULL AND (ca.expires_at IS NULL OR ca.expires_at > p_now)
          ) p
          JOIN capacity_allocations r
            ON r.resource = 'tour' AND r.resource_id = p_resource_id[i]
           AND r.slot_start <= p.t AND coalesce(r.slot_end, r.slot_start) > p.t
           AND r.released_at IS NULL AND (r.expires_at IS NULL OR r.expires_at > p_now)
         GROUP BY p.t
      ) peaks;
    ELSE
      -- The permanent part from its running total, the temporary part (holds, pending orders)
      -- from its own rows: together the same rule as liveAt() in used.ts.
      SELECT coalesce((SELECT t.permanent FROM capacity_totals t
                        WHERE t.resource = p_resource[i] AND t.resource_id = p_resource_id[i] AND t.slot_start = p_slot_start[i]), 0)
           + coalesce((SELECT sum(ca.quantity) FROM capacity_allocations ca
                        WHERE ca.resource = p_resource[i] AND ca.resource_id = p_resource_id[i] AND ca.slot_start = p_slot_start[i]
                          AND ca.released_at IS NULL AND ca.expires_at IS NOT NULL AND ca.expires_at > p_now), 0)
        INTO used;
    END IF;

    IF used + p_quantity[i] > p_capacity[i] THEN
      DELETE FROM capacity_allocations WHERE id = ANY (inserted);
      RETURN i;
    END IF;

    IF p_race_window_ms > 0 THEN
      PERFORM pg_sleep(p_race_window_ms / 1000.0);
    END IF;

    INSERT INTO capacity_allocations
      (resource, resource_id, slot_start, slot_end, quantity, reservation_id, order_item_id, expires_at, created_at)
    VALUES
      (p_resource[i], p_resource_id[i], p_slot_start[i], p_slot_end[i], p_quantity[i],
       p_reservation_id[i], p_order_item_id[i], p_expires_at[i], p_now)
    RETURNING id INTO new_id;
    inserted := inserted || new_id;
  END LOOP;
  RETURN 0;
END $$;
