-- Group commit for new orders: several order_place payloads in one transaction, each in its own
-- subtransaction, so a failing order is undone alone. Called by src/domain/orders/orderBatches.ts.
-- Only the first order may wait for a lock; later ones set atrium.claim_nowait and fail with
-- SQLSTATE AT002 when busy, to head the next batch: a batch never waits while holding locks.
--
-- p: a JSON array of order_place payloads, in the order they are placed.
-- Returns one element per payload, in the same order: {"placed": <order_place result>} or
-- {"error": {"code": SQLSTATE, "constraint": name or null, "message": text}}.
CREATE OR REPLACE FUNCTION order_place_batch(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
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
