-- The capacity claim in ONE round trip (src/domain/capacity/claimCapacity.ts, ADR 0009).
-- Before, a claim cost a statement per lock key, one per demand to read what is used, one for
-- the released holds and one insert, each waiting for Node between them; on a hot slot those
-- round trips were the time the slot's lock was held. The rules are unchanged and still live in
-- TypeScript up to the lock (resolving a claim against the catalogue, quantity above capacity);
-- this function is only the part that must run under the lock:
--   1. lock every key in the given order (the caller sorts them: no deadlocks between writers),
--      waiting at most p_lock_timeout (55P03 becomes CAPACITY_BUSY in TypeScript);
--   2. release the holds being converted (reservations consumed by an order);
--   3. per demand, in order: read what is used of its pool now, refuse if it does not fit, else
--      insert its allocation. Earlier demands of the same call are rows by then, so two items on
--      one slot are counted together.
-- Returns 0 when everything was claimed, else the 1-based index of the first demand that does
-- not fit; its predecessors' rows are deleted again, so a refusal leaves nothing behind.
--
-- "Used" is the same rule as liveAt() in src/domain/capacity/used.ts, which availability reads
-- use: a row counts while released_at is null and it is permanent or not yet expired at p_now.
-- Tours count concurrent runs: the peak number of runs overlapping the new run's span (the peak
-- is at its start or at the start of a run inside it), as peakConcurrency() in used.ts.
CREATE FUNCTION capacity_claim(
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
      PERFORM pg_advisory_xact_lock(p_keys[i]);
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
--> statement-breakpoint
-- Writing an order in ONE round trip (src/domain/orders/placeOrder.ts, ADR 0009). TypeScript
-- decides everything — prices, the rows' values, barcodes, which documents, the demands on
-- capacity — and this function only performs those writes in order, inside the caller's
-- statement: the order row, its items, the reservations it consumes, the barcodes, the documents
-- (flagged for their render jobs), and finally the capacity claim (capacity_claim above). A claim that
-- does not fit raises SQLSTATE 'AT001', which undoes every write of the call (and of the caller's
-- transaction, if any); TypeScript answers SLOT_SOLD_OUT.
--
-- p: { order: orders row (snake_case, no id), items: [order_items rows (no id, no order_id)],
--      consume: [reservation ids], codes: [candidate barcodes, spares included],
--      barcodes: [count per item], documents: [{kind, filename (':order_id' is replaced)}],
--      document: {available_until}, claim: {keys, lock_timeout, now,
--      release, expires_at, race_window_ms, demands: [{item (1-based), resource, resource_id,
--      slot_start, slot_end, quantity, capacity}]} }
-- Returns { order, items, barcodes, documents } as written (to_jsonb of the rows).
CREATE FUNCTION order_place(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  o orders;
  it order_items;
  item_ids bigint[] := '{}';
  items_out jsonb := '[]';
  codes_out jsonb := '[]';
  docs_out jsonb := '[]';
  r jsonb;
  n integer;
  k integer;
  next_code integer := 0;
  code_count integer := coalesce(jsonb_array_length(p->'codes'), 0);
  bc barcodes;
  doc documents;
  c jsonb := p->'claim';
  failed integer;
  d_resource text[] := '{}';
  d_resource_id integer[] := '{}';
  d_slot_start timestamptz[] := '{}';
  d_slot_end timestamptz[] := '{}';
  d_quantity integer[] := '{}';
  d_capacity integer[] := '{}';
  d_item bigint[] := '{}';
  d_none bigint[] := '{}';
  d_expires timestamptz[] := '{}';
BEGIN
  INSERT INTO orders (account_id, foreign_id, token, status, source, customer_id, comment, reference,
                      total_price_cents, currency, museum_ids, request_hash, created_at, updated_at,
                      expires_at, finalized_at)
  SELECT x.account_id, x.foreign_id, x.token, x.status, x.source, x.customer_id, x.comment, x.reference,
         x.total_price_cents, x.currency, x.museum_ids, x.request_hash, x.created_at, x.updated_at,
         x.expires_at, x.finalized_at
    FROM jsonb_populate_record(null::orders, p->'order') x
  RETURNING * INTO o;

  FOR r IN SELECT e FROM jsonb_array_elements(p->'items') WITH ORDINALITY AS t(e, i) ORDER BY i LOOP
    INSERT INTO order_items (order_id, type, museum_id, ticket_id, event_date_id, tour_id, language_id, quantity,
                             start_at, unit_price_cents, price_cents, vat_pct, tax_included, attendees)
    SELECT o.id, x.type, x.museum_id, x.ticket_id, x.event_date_id, x.tour_id, x.language_id, x.quantity,
           x.start_at, x.unit_price_cents, x.price_cents, x.vat_pct, x.tax_included, x.attendees
      FROM jsonb_populate_record(null::order_items, r) x
    RETURNING * INTO it;
    item_ids := item_ids || it.id;
    items_out := items_out || to_jsonb(it);
  END LOOP;

  IF coalesce(jsonb_array_length(p->'consume'), 0) > 0 THEN
    UPDATE reservations SET consumed_at = o.created_at, consumed_by_order_id = o.id
     WHERE id IN (SELECT value::bigint FROM jsonb_array_elements_text(p->'consume'));
  END IF;

  -- Barcodes: codes are drawn in TypeScript (crypto random, check digit); one that collides with
  -- an existing code is skipped for the next candidate. Running out of candidates is an error.
  FOR n IN 1 .. coalesce(jsonb_array_length(p->'barcodes'), 0) LOOP
    FOR k IN 1 .. (p->'barcodes'->>(n - 1))::integer LOOP
      LOOP
        IF next_code >= code_count THEN
          RAISE EXCEPTION 'could not draw unique barcodes';
        END IF;
        next_code := next_code + 1;
        INSERT INTO barcodes (order_item_id, code, status, created_at)
        VALUES (item_ids[n], p->'codes'->>(next_code - 1), 'valid', o.created_at)
        ON CONFLICT (code) DO NOTHING
        RETURNING * INTO bc;
        EXIT WHEN FOUND;
      END LOOP;
      codes_out := codes_out || to_jsonb(bc);
    END LOOP;
  END LOOP;

  FOR r IN SELECT e FROM jsonb_array_elements(coalesce(p->'documents', '[]')) WITH ORDINALITY AS t(e, i) ORDER BY i LOOP
    -- render_pending: the dispatcher (documents_dispatch, migration 0007) adds the render job
    -- after this commits; calling the job queue here would NOTIFY, which serialises commits.
    INSERT INTO documents (kind, order_id, account_id, museum_ids, filename, content_type, status,
                           created_at, updated_at, available_until, render_pending)
    VALUES (r->>'kind', o.id, o.account_id, o.museum_ids, replace(r->>'filename', ':order_id', o.id::text), 'application/pdf', 'processing',
            o.created_at, o.created_at, (p->'document'->>'available_until')::timestamptz, true)
    ON CONFLICT (order_id, kind) WHERE kind <> 'attachment' DO NOTHING
    RETURNING * INTO doc;
    IF FOUND THEN
      docs_out := docs_out || jsonb_build_object('id', doc.id, 'kind', doc.kind, 'status', doc.status,
                                                 'filename', doc.filename, 'available_until', doc.available_until);
    END IF;
  END LOOP;

  IF c IS NOT NULL THEN
    FOR r IN SELECT e FROM jsonb_array_elements(c->'demands') WITH ORDINALITY AS t(e, i) ORDER BY i LOOP
      d_resource := array_append(d_resource, (r->>'resource'));
      d_resource_id := array_append(d_resource_id, (r->>'resource_id')::integer);
      d_slot_start := array_append(d_slot_start, (r->>'slot_start')::timestamptz);
      d_slot_end := array_append(d_slot_end, (r->>'slot_end')::timestamptz);
      d_quantity := array_append(d_quantity, (r->>'quantity')::integer);
      d_capacity := array_append(d_capacity, (r->>'capacity')::integer);
      d_item := array_append(d_item, item_ids[(r->>'item')::integer]);
      d_none := array_append(d_none, null::bigint);
      d_expires := array_append(d_expires, (c->>'expires_at')::timestamptz);
    END LOOP;
    failed := capacity_claim(
      ARRAY(SELECT value::bigint FROM jsonb_array_elements_text(c->'keys') WITH ORDINALITY AS t(value, i) ORDER BY i),
      c->>'lock_timeout',
      (c->>'now')::timestamptz,
      ARRAY(SELECT value::bigint FROM jsonb_array_elements_text(c->'release')),
      d_resource, d_resource_id, d_slot_start, d_slot_end, d_quantity, d_capacity, d_none, d_item, d_expires,
      coalesce((c->>'race_window_ms')::integer, 0));
    IF failed <> 0 THEN
      RAISE EXCEPTION 'not enough capacity left for this slot' USING ERRCODE = 'AT001';
    END IF;
  END IF;

  RETURN jsonb_build_object('order', to_jsonb(o), 'items', items_out, 'barcodes', codes_out, 'documents', docs_out);
END $$;
