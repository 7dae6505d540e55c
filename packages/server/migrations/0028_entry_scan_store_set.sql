-- Scans stored set-wise (docs/adr/0028-scan-latency.md). entry_scan_store_batch (migration 0026)
-- called entry_scan_store once per scan: five statements per scan, each with its executor start,
-- its FK checks and its own pass over the payload. A batch of distinct barcodes, with nothing to
-- revise, is now stored by four statements for the whole batch; anything else (two scans of one
-- barcode in the batch, revised verdicts, the race test's control run) still goes one by one
-- through entry_scan_store, unchanged in what it writes.
--
-- The set path writes exactly what entry_scan_store writes for each scan (same compare-and-set on
-- the state, same scan row, same scan.created event), in one transaction. When a device_scan_id
-- turns out to be taken by a concurrent request (the read found none), it raises: the batch writes
-- nothing and src/domain/entry/scanBatches.ts stores each of its scans alone, as for any failed batch.
CREATE OR REPLACE FUNCTION entry_scan_store(p jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
-- As in migration 0026; only the revise UPDATE is skipped when there is nothing to revise.
DECLARE
  v_id bigint;
  v_state jsonb := p->'state';
  v_expected bigint := (p->>'expected')::bigint;
  v_check boolean := coalesce((p->>'check')::boolean, true);
  v_same jsonb := nullif(p->'same', 'null'::jsonb);
BEGIN
  INSERT INTO scans (account_id, device_scan_id, barcode, barcode_id, museum_id, order_id, order_item_id, direction, location,
                     people_count, result, gate_result, message, entries_used, entries_allowed, scanned_at, received_at)
  SELECT account_id, device_scan_id, barcode, barcode_id, museum_id, order_id, order_item_id, direction, location,
         people_count, result, gate_result, message, entries_used, entries_allowed, scanned_at, received_at
    FROM jsonb_populate_record(null::scans, p->'scan')
  ON CONFLICT (account_id, device_scan_id) WHERE device_scan_id IS NOT NULL DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    RETURN -1;
  END IF;
  IF jsonb_typeof(v_state) = 'object' THEN
    IF v_expected IS NULL AND v_check THEN
      INSERT INTO entry_states (barcode_id, order_item_id, museum_id, entries_used, inside_people, last_entry_at, last_scan_at, updated_at, version)
      SELECT barcode_id, order_item_id, museum_id, entries_used, inside_people, last_entry_at, last_scan_at, updated_at, 1
        FROM jsonb_populate_record(null::entry_states, v_state)
      ON CONFLICT (barcode_id) DO NOTHING;
    ELSE
      INSERT INTO entry_states AS s (barcode_id, order_item_id, museum_id, entries_used, inside_people, last_entry_at, last_scan_at, updated_at, version)
      SELECT barcode_id, order_item_id, museum_id, entries_used, inside_people, last_entry_at, last_scan_at, updated_at, 1
        FROM jsonb_populate_record(null::entry_states, v_state)
      ON CONFLICT (barcode_id) DO UPDATE SET
        entries_used = excluded.entries_used, inside_people = excluded.inside_people,
        last_entry_at = excluded.last_entry_at, last_scan_at = greatest(s.last_scan_at, excluded.last_scan_at),
        updated_at = excluded.updated_at, version = s.version + 1
      WHERE NOT v_check OR CASE
        WHEN v_same IS NULL THEN s.version = v_expected
        ELSE (s.entries_used, s.inside_people, s.last_entry_at) IS NOT DISTINCT FROM
             ((v_same->>'entries_used')::int, (v_same->>'inside_people')::int, (v_same->>'last_entry_at')::timestamptz)
      END;
    END IF;
    IF NOT FOUND THEN
      DELETE FROM scans WHERE id = v_id;
      RETURN 0;
    END IF;
  END IF;
  IF jsonb_array_length(coalesce(p->'revise', '[]'::jsonb)) > 0 THEN
    UPDATE scans SET result = r.result, revised_at = (p->'scan'->>'received_at')::timestamptz
      FROM jsonb_to_recordset(p->'revise') AS r(id bigint, result text)
     WHERE scans.id = r.id;
  END IF;
  INSERT INTO outbox_events (id, type, account_id, museum_ids, data, created_at)
  SELECT e.id, 'scan.created', e.account_id, e.museum_ids, jsonb_set(e.data, '{scan,id}', to_jsonb(v_id)), e.created_at
    FROM jsonb_populate_record(null::outbox_events, p->'event') AS e;
  RETURN v_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION entry_scan_store_set(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
-- p: an array of entry_scan_store payloads of distinct barcodes, none with `revise`, all with
-- `check`. Returns, in order, each scan's id or 0 (its state moved on: decide again).
DECLARE
  v_out jsonb;
  v_kept int;
  v_stored int;
BEGIN
  -- The states to change, locked in barcode order, so two batches never wait on each other
  -- crosswise (the UPDATE below locks in whatever order its join runs).
  PERFORM 1 FROM entry_states
    WHERE barcode_id IN (SELECT (e.v->'state'->>'barcode_id')::bigint FROM jsonb_array_elements(p) AS e(v)
                          WHERE jsonb_typeof(e.v->'state') = 'object' AND e.v->>'expected' IS NOT NULL)
    ORDER BY barcode_id FOR UPDATE;
  WITH items AS (
    SELECT e.i, e.v, nextval(pg_get_serial_sequence('scans', 'id')) AS scan_id,
           jsonb_typeof(e.v->'state') = 'object' AS stateful, (e.v->>'expected')::bigint AS expected,
           nullif(e.v->'same', 'null'::jsonb) AS same
      FROM jsonb_array_elements(p) WITH ORDINALITY AS e(v, i)
  ),
  -- First stateful scan of a barcode: its state row, unless a concurrent scan made it first.
  fresh AS (
    INSERT INTO entry_states (barcode_id, order_item_id, museum_id, entries_used, inside_people, last_entry_at, last_scan_at, updated_at, version)
    SELECT n.barcode_id, n.order_item_id, n.museum_id, n.entries_used, n.inside_people, n.last_entry_at, n.last_scan_at, n.updated_at, 1
      FROM items, jsonb_populate_record(null::entry_states, items.v->'state') AS n
     WHERE items.stateful AND items.expected IS NULL
     ORDER BY n.barcode_id
    ON CONFLICT (barcode_id) DO NOTHING
    RETURNING barcode_id
  ),
  -- Later scans: over the state as read (the same compare-and-set as entry_scan_store).
  moved AS (
    UPDATE entry_states AS s SET
      entries_used = n.entries_used, inside_people = n.inside_people, last_entry_at = n.last_entry_at,
      last_scan_at = greatest(s.last_scan_at, n.last_scan_at), updated_at = n.updated_at, version = s.version + 1
      FROM items, jsonb_populate_record(null::entry_states, items.v->'state') AS n
     WHERE items.stateful AND items.expected IS NOT NULL AND s.barcode_id = n.barcode_id
       AND CASE
         WHEN items.same IS NULL THEN s.version = items.expected
         ELSE (s.entries_used, s.inside_people, s.last_entry_at) IS NOT DISTINCT FROM
              ((items.same->>'entries_used')::int, (items.same->>'inside_people')::int, (items.same->>'last_entry_at')::timestamptz)
       END
    RETURNING s.barcode_id
  ),
  kept AS (
    SELECT items.* FROM items
     WHERE NOT items.stateful
        OR (items.v->'state'->>'barcode_id')::bigint IN (SELECT barcode_id FROM fresh UNION ALL SELECT barcode_id FROM moved)
  ),
  stored AS (
    INSERT INTO scans (id, account_id, device_scan_id, barcode, barcode_id, museum_id, order_id, order_item_id, direction, location,
                       people_count, result, gate_result, message, entries_used, entries_allowed, scanned_at, received_at)
    SELECT kept.scan_id, c.account_id, c.device_scan_id, c.barcode, c.barcode_id, c.museum_id, c.order_id, c.order_item_id, c.direction, c.location,
           c.people_count, c.result, c.gate_result, c.message, c.entries_used, c.entries_allowed, c.scanned_at, c.received_at
      FROM kept, jsonb_populate_record(null::scans, kept.v->'scan') AS c
    ON CONFLICT (account_id, device_scan_id) WHERE device_scan_id IS NOT NULL DO NOTHING
    RETURNING id
  ),
  events AS (
    INSERT INTO outbox_events (id, type, account_id, museum_ids, data, created_at)
    SELECT e.id, 'scan.created', e.account_id, e.museum_ids, jsonb_set(e.data, '{scan,id}', to_jsonb(kept.scan_id)), e.created_at
      FROM kept JOIN stored ON stored.id = kept.scan_id, jsonb_populate_record(null::outbox_events, kept.v->'event') AS e
  )
  SELECT jsonb_agg(CASE WHEN stored.id IS NULL THEN 0 ELSE stored.id END ORDER BY items.i),
         (SELECT count(*) FROM kept), (SELECT count(*) FROM stored)
    INTO v_out, v_kept, v_stored
    FROM items LEFT JOIN stored ON stored.id = items.scan_id;
  IF v_kept <> v_stored THEN
    -- A device_scan_id stored meanwhile by a concurrent request: its state was written above, so
    -- the whole batch is undone and stored scan by scan (scanBatches.ts), which answers -1 for it.
    RAISE EXCEPTION 'a device_scan_id of this batch was stored concurrently' USING ERRCODE = 'P0001';
  END IF;
  RETURN v_out;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION entry_scan_store_batch(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
-- Group commit for scans (src/domain/entry/scanBatches.ts): the entry_scan_store payloads of
-- scans that arrived together, stored in one transaction; answers their results in order.
DECLARE
  v_out bigint[];
  r record;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p) AS e(v)
                  WHERE NOT coalesce((e.v->>'check')::boolean, true)
                     OR jsonb_array_length(coalesce(e.v->'revise', '[]'::jsonb)) > 0)
     AND (SELECT count(*) = count(DISTINCT e.v->'state'->>'barcode_id') FROM jsonb_array_elements(p) AS e(v)
           WHERE jsonb_typeof(e.v->'state') = 'object') THEN
    RETURN entry_scan_store_set(p);
  END IF;
  -- One by one, in barcode order, so two batches never wait on each other's states crosswise.
  v_out := array_fill(0::bigint, ARRAY[jsonb_array_length(p)]);
  FOR r IN SELECT e.value AS item, e.i FROM jsonb_array_elements(p) WITH ORDINALITY AS e(value, i)
            ORDER BY (e.value->'state'->>'barcode_id')::bigint NULLS LAST, e.i LOOP
    v_out[r.i] := entry_scan_store(r.item);
  END LOOP;
  RETURN to_jsonb(v_out);
END $$;
--> statement-breakpoint
-- The scan's read (src/domain/entry/internal.ts), planned once per connection. As a named
-- prepared statement from Node, PostgreSQL planned it afresh on every call: with the array
-- arguments known, each custom plan looked cheaper than the generic one, so the plan cache never
-- switched to it, and planning the eleven-relation join took 2–13 ms against 0.2 ms of execution
-- (pg_stat_statements: 454 plans in 654 calls, 94 % of the statement's time). At a door's usual
-- rate every read is a batch of one and paid it whole. The plan does not depend on the values (an
-- index lookup per barcode code), so the generic plan is forced for this statement alone, and
-- the joins are taken in the order written (barcode, then its item, order, ...: the order the
-- plan would choose), which spares the planner its search over every order of eleven relations.
CREATE FUNCTION entry_scan_targets(p_codes text[], p_accounts int[], p_devices text[])
RETURNS TABLE (i bigint, seen_scan_id bigint, barcode_id bigint, barcode_status text, order_id integer, order_status text,
               account_id integer, item_id bigint, item_status text, type text, museum_id integer, quantity integer,
               start_at timestamptz, time_zone text, entry_duration integer, last_entry integer, fixed_duration integer,
               product_id integer, title jsonb, entries_allowed integer, reentry boolean, early_minutes integer,
               entries_used integer, inside_people integer, last_entry_at timestamptz, last_scan_at timestamptz, version bigint)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET join_collapse_limit = 1 AS $$
BEGIN
  -- Barcodes with their order, item, product, rule and entry state, and the scan a device_scan_id
  -- already names; one row per input, in input order, also for an unknown code.
  RETURN QUERY
  SELECT q.i, (SELECT s.id FROM scans s
                -- "IS NOT NULL" lets the generic plan use the partial index scans_device_scan.
                WHERE s.account_id = q.account_id AND s.device_scan_id = q.device_scan_id AND s.device_scan_id IS NOT NULL),
         f.*
    FROM unnest(p_codes, p_accounts, p_devices) WITH ORDINALITY AS q(code, account_id, device_scan_id, i)
    LEFT JOIN LATERAL (
      SELECT b.id, b.status, o.id, o.status, o.account_id, it.id, it.status, it.type, it.museum_id, it.quantity,
             it.start_at, m.time_zone, t.entry_duration, t.last_entry,
             coalesce(ed.duration, tr.duration),
             coalesce(it.ticket_id, ed.event_id, it.tour_id),
             coalesce(t.title, e.title, tr.title),
             r.entries_allowed, r.reentry, r.early_minutes,
             st.entries_used, st.inside_people, st.last_entry_at, st.last_scan_at, st.version
        FROM barcodes b
        JOIN order_items it ON it.id = b.order_item_id
        JOIN orders o ON o.id = it.order_id
        JOIN museums m ON m.id = it.museum_id
        LEFT JOIN tickets t ON t.id = it.ticket_id
        LEFT JOIN event_dates ed ON ed.id = it.event_date_id
        LEFT JOIN events e ON e.id = ed.event_id
        LEFT JOIN tours tr ON tr.id = it.tour_id
        LEFT JOIN entry_rules r ON r.ticket_id = it.ticket_id
        LEFT JOIN entry_states st ON st.barcode_id = b.id
       WHERE b.code = q.code) f ON true
   ORDER BY q.i;
END $$;
