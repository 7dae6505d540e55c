-- A hold in ONE statement, as order_place writes an order: the reservation row, then its claim
-- through capacity_claim under the slot lock. A claim that does not fit raises SQLSTATE AT001
-- (SOLD_OUT), which undoes the row. Called by src/domain/reservations/createReservation.ts.
--
-- p: { reservation: reservations row (snake_case, no id),
--      claim: {keys, lock_timeout, now, expires_at, race_window_ms, demands: [{resource,
--      resource_id, slot_start, slot_end, quantity, capacity}]} }  (claimSpec in claimCapacity.ts)
-- Returns the reservation row as written (to_jsonb).
CREATE OR REPLACE FUNCTION reservation_place(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r reservations;
  c jsonb := p->'claim';
  n integer := coalesce(jsonb_array_length(p->'claim'->'demands'), 0);
  failed integer;
BEGIN
  INSERT INTO reservations (token, account_id, ticket_id, event_date_id, quantity, start_at, created_at, expires_at, lifetime_ends_at)
  SELECT x.token, x.account_id, x.ticket_id, x.event_date_id, x.quantity, x.start_at, x.created_at, x.expires_at, x.lifetime_ends_at
    FROM jsonb_populate_record(null::reservations, p->'reservation') x
  RETURNING * INTO r;

  failed := capacity_claim(
    ARRAY(SELECT value::bigint FROM jsonb_array_elements_text(c->'keys') WITH ORDINALITY AS t(value, i) ORDER BY i),
    c->>'lock_timeout',
    (c->>'now')::timestamptz,
    '{}'::bigint[],
    ARRAY(SELECT d->>'resource' FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(d, i) ORDER BY i),
    ARRAY(SELECT (d->>'resource_id')::integer FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(d, i) ORDER BY i),
    ARRAY(SELECT (d->>'slot_start')::timestamptz FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(d, i) ORDER BY i),
    ARRAY(SELECT (d->>'slot_end')::timestamptz FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(d, i) ORDER BY i),
    ARRAY(SELECT (d->>'quantity')::integer FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(d, i) ORDER BY i),
    ARRAY(SELECT (d->>'capacity')::integer FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(d, i) ORDER BY i),
    array_fill(r.id, ARRAY[n]),
    array_fill(null::bigint, ARRAY[n]),
    array_fill((c->>'expires_at')::timestamptz, ARRAY[n]),
    coalesce((c->>'race_window_ms')::integer, 0));
  IF failed <> 0 THEN
    RAISE EXCEPTION 'not enough capacity left for this slot' USING ERRCODE = 'AT001';
  END IF;
  RETURN to_jsonb(r);
END $$;
