-- Group commit for new orders (src/domain/orders/orderBatches.ts, ADR 0010). Under load, the
-- orders that arrive while earlier ones are being written are placed together: one call, one
-- transaction, one commit for all of them. Each order still runs order_place (migration 0006)
-- unchanged, inside its own subtransaction, so an order that fails (sold out, lock wait ran out,
-- a duplicate foreign_id, anything) is undone alone and the others commit.
--
-- Lock waits: a batch keeps the capacity locks of its earlier orders until it commits. Only its
-- first order may wait for a lock (it holds none yet). Every later order only tries its locks
-- (atrium.claim_nowait, below): one that is busy fails with SQLSTATE 'AT002' and TypeScript puts
-- it at the head of the next batch, where it may wait. So a batch never waits while holding
-- locks (no deadlocks, however its orders' keys interleave with other writers'), and one busy
-- slot never stalls the unrelated orders batched with it.
--
-- p: a JSON array of order_place payloads, in the order they are placed.
-- Returns one element per payload, in the same order: {"placed": <order_place result>} or
-- {"error": {"code": SQLSTATE, "constraint": name or null, "message": text}}.
CREATE FUNCTION order_place_batch(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  one jsonb;
  results jsonb[] := '{}';
  v_code text;
  v_constraint text;
  v_message text;
BEGIN
  FOR one IN SELECT e FROM jsonb_array_elements(p) WITH ORDINALITY AS t(e, i) ORDER BY i LOOP
    IF array_length(results, 1) = 1 THEN
      PERFORM set_config('atrium.claim_nowait', 'on', true);
    END IF;
    BEGIN
      results := array_append(results, jsonb_build_object('placed', order_place(one)));
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS v_code = RETURNED_SQLSTATE, v_constraint = CONSTRAINT_NAME, v_message = MESSAGE_TEXT;
      results := array_append(results, jsonb_build_object('error',
        jsonb_build_object('code', v_code, 'constraint', nullif(v_constraint, ''), 'message', v_message)));
    END;
  END LOOP;
  RETURN to_jsonb(results);
END $$;

--> statement-breakpoint
-- capacity_claim as in migration 0006, with one addition for batches: while the transaction has
-- set atrium.claim_nowait, a lock that is taken by another transaction is not waited for; the
-- claim fails at once with SQLSTATE 'AT002' (order_place_batch above).
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
      SELECT coalesce(sum(ca.quantity), 0) INTO used FROM capacity_allocations ca
       WHERE ca.resource = p_resource[i] AND ca.resource_id = p_resource_id[i] AND ca.slot_start = p_slot_start[i]
         AND ca.released_at IS NULL AND (ca.expires_at IS NULL OR ca.expires_at > p_now);
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
