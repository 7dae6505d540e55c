-- Stores a batch of scans of distinct barcodes, none revising a verdict, with a few statements
-- for the whole batch: exactly what entry_scan_store writes for each (same compare-and-set, scan
-- row and scan.created event). Called by entry_scan_store_batch. A device scan id taken by a
-- concurrent request raises: the batch writes nothing and scanBatches.ts stores each scan alone.
CREATE OR REPLACE FUNCTION entry_scan_store_set(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
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
