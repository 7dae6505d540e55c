-- The scan's read: barcodes with their state and version, for src/domain/entry/internal.ts.
-- A LANGUAGE sql function that PostgreSQL inlines into the caller's prepared statement (STABLE,
-- no SET clause, not STRICT, one SELECT); each array argument is read through a scalar
-- sub-select so the plan cache settles on the generic plan (docs/adr/0031-scan-read-inlined.md).
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
