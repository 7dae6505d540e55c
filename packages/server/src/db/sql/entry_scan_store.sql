-- Stores one scan's decision (made in Node, src/domain/entry/rules.ts) if the barcode state's
-- version is still the one read (compare-and-set): scan row, state, revised verdicts and the
-- scan.created event atomically, or nothing. Returns the scan id, 0 (state moved on: decide
-- again) or -1 (device scan id taken). Called by src/domain/entry/scanBatches.ts and
-- entry_scan_store_each (docs/adr/0027-scans-without-a-held-lock.md).
CREATE OR REPLACE FUNCTION entry_scan_store(p jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
-- The revise UPDATE is skipped when there is nothing to revise.
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
