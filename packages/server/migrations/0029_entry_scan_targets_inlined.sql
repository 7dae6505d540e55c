-- The scan's read (src/domain/entry/internal.ts, docs/adr/0031-scan-read-inlined.md) without the
-- cost of a plpgsql wrapper. Migration 0028 made it a plpgsql function with
-- `SET plan_cache_mode = force_generic_plan SET join_collapse_limit = 1`, so that its plan was made
-- once per connection and not on every call (2-13 ms each). The wrapper itself then cost more than
-- the query: at 1,000 scans/s pg_stat_statements measured 0.33-0.37 ms per call against 0.11 ms
-- for the SELECT inside (the SET clauses save and restore settings on every call, RETURN QUERY
-- copies the rows into a tuplestore, and the call is a statement of its own).
--
-- Now it is a LANGUAGE sql function that PostgreSQL inlines into the caller's prepared statement
-- (STABLE, no SET clause, not STRICT, a single SELECT), so the caller's statement is the query.
-- The generic plan is still what that statement settles on, by the query's shape rather than a
-- setting: each array argument is read through a scalar sub-select, `(SELECT p_codes)`, which the
-- planner keeps as an InitPlan. A custom plan then cannot see the arrays' values either (it would
-- otherwise count their elements and estimate fewer rows than the generic plan's default), so
-- custom and generic plans cost the same, and after its first five custom plans the plan cache
-- keeps the generic one: about 6 plans per connection (checked with pg_stat_statements,
-- track_planning). The rows and columns are those of migration 0028.
CREATE OR REPLACE FUNCTION entry_scan_targets(p_codes text[], p_accounts int[], p_devices text[])
RETURNS TABLE (i bigint, seen_scan_id bigint, barcode_id bigint, barcode_status text, order_id integer, order_status text,
               account_id integer, item_id bigint, item_status text, type text, museum_id integer, quantity integer,
               start_at timestamptz, time_zone text, entry_duration integer, last_entry integer, fixed_duration integer,
               product_id integer, title jsonb, entries_allowed integer, reentry boolean, early_minutes integer,
               entries_used integer, inside_people integer, last_entry_at timestamptz, last_scan_at timestamptz, version bigint)
LANGUAGE sql STABLE AS $$
  -- Barcodes with their order, item, product, rule and entry state, and the scan a device_scan_id
  -- already names; one row per input, in input order, also for an unknown code.
  SELECT q.i, (SELECT s.id FROM scans s
                -- "IS NOT NULL" lets the generic plan use the partial index scans_device_scan.
                WHERE s.account_id = q.account_id AND s.device_scan_id = q.device_scan_id AND s.device_scan_id IS NOT NULL),
         f.*
    FROM unnest((SELECT p_codes), (SELECT p_accounts), (SELECT p_devices)) WITH ORDINALITY AS q(code, account_id, device_scan_id, i)
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
   ORDER BY q.i
$$;
--> statement-breakpoint
-- Small batches of scans stored one by one (src/domain/entry/scanBatches.ts). The set-wise store of
-- migration 0028 has a larger cost per call than entry_scan_store has per scan, which only pays off
-- from five scans on: bench/scan-store.ts, backend CPU per scan set-wise / one by one, 1.20 for
-- batches of 2, 1.09 for 3, 1.05-1.07 for 4, 0.99 for 5, 0.92 for 8, 0.83 for 20. At 1,000 scans/s
-- a batch carries about 3 scans. scanBatches.ts calls this function for batches of 2 to 4 and
-- entry_scan_store_batch for larger ones; entry_scan_store_batch takes the same path for a batch
-- that cannot go set-wise. Each scan is stored by entry_scan_store, as in migration 0026, in
-- barcode order, so two batches never wait on each other's states crosswise.
CREATE FUNCTION entry_scan_store_each(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION entry_scan_store_batch(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
-- Group commit for scans (src/domain/entry/scanBatches.ts): the entry_scan_store payloads of
-- scans that arrived together, stored in one transaction; answers their results in order. As in
-- migration 0028; the one-by-one path is entry_scan_store_each now.
BEGIN
  IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p) AS e(v)
                  WHERE NOT coalesce((e.v->>'check')::boolean, true)
                     OR jsonb_array_length(coalesce(e.v->'revise', '[]'::jsonb)) > 0)
     AND (SELECT count(*) = count(DISTINCT e.v->'state'->>'barcode_id') FROM jsonb_array_elements(p) AS e(v)
           WHERE jsonb_typeof(e.v->'state') = 'object') THEN
    RETURN entry_scan_store_set(p);
  END IF;
  RETURN entry_scan_store_each(p);
END $$;
