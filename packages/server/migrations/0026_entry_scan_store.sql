-- A scan in two round trips instead of eight (docs/adr/0027-scans-without-a-held-lock.md): the scan
-- reads the barcode with its state and version, decides in Node (src/domain/entry/rules.ts), and
-- stores the decision with entry_scan_store(), which applies it only if the state's version is
-- still the one read (compare-and-set). The function holds no rule: it writes what it is given,
-- atomically (scan, state, revised verdicts, scan.created event), or nothing.
ALTER TABLE "entry_states" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE FUNCTION entry_scan_store(p jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
-- p: { scan: {columns of scans but id}, state: null | {columns of entry_states}, expected: null |
--      version read (null: no state row was read), same: null | {entries_used, inside_people,
--      last_entry_at} as read: an online scan's decision depends on these alone, so it holds
--      while they are unchanged, whatever refusals were stored meanwhile (these leave them as
--      they are), check: false only in the test's control run, revise: [{id, result}],
--      event: {id, account_id, museum_ids, data, created_at} }
-- Returns the new scan's id; 0 when the state changed since it was read (decide again); -1 when
-- the device_scan_id was stored by another request (answer with that scan). 0 and -1 write nothing.
DECLARE
  v_id bigint;
  v_state jsonb := p->'state';
  v_expected bigint := (p->>'expected')::bigint;
  v_check boolean := coalesce((p->>'check')::boolean, true);
  v_same jsonb := nullif(p->'same', 'null'::jsonb);
BEGIN
  -- The scan first: a device_scan_id taken by a concurrent request waits for it, then is a no-op.
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
      -- Decided over a state that is gone: the scan is taken back (it is this call's own row).
      DELETE FROM scans WHERE id = v_id;
      RETURN 0;
    END IF;
  END IF;
  UPDATE scans SET result = r.result, revised_at = (p->'scan'->>'received_at')::timestamptz
    FROM jsonb_to_recordset(coalesce(p->'revise', '[]'::jsonb)) AS r(id bigint, result text)
   WHERE scans.id = r.id;
  INSERT INTO outbox_events (id, type, account_id, museum_ids, data, created_at)
  SELECT e.id, 'scan.created', e.account_id, e.museum_ids, jsonb_set(e.data, '{scan,id}', to_jsonb(v_id)), e.created_at
    FROM jsonb_populate_record(null::outbox_events, p->'event') AS e;
  RETURN v_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION entry_scan_store_batch(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
-- Group commit for scans (src/domain/entry/scanBatches.ts): the entry_scan_store payloads of
-- scans that arrived together, stored in one transaction; answers their results in order. They
-- are stored in barcode order, so two batches never wait on each other's states crosswise.
DECLARE
  v_out bigint[] := array_fill(0::bigint, ARRAY[jsonb_array_length(p)]);
  r record;
BEGIN
  FOR r IN SELECT e.value AS item, e.i FROM jsonb_array_elements(p) WITH ORDINALITY AS e(value, i)
            ORDER BY (e.value->'state'->>'barcode_id')::bigint NULLS LAST, e.i LOOP
    v_out[r.i] := entry_scan_store(r.item);
  END LOOP;
  RETURN to_jsonb(v_out);
END $$;
