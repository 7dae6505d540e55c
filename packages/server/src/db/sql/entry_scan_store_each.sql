-- Scans of a small batch stored one by one through entry_scan_store, in barcode order, so two
-- batches never wait on each other's states crosswise. Called by src/domain/entry/scanBatches.ts
-- for small batches (the set-wise store costs more per call than it saves below a handful of
-- scans) and by entry_scan_store_batch for batches that cannot go set-wise.
CREATE OR REPLACE FUNCTION entry_scan_store_each(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
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
