-- Group commit for scans: the entry_scan_store payloads of scans that arrived together, in one
-- transaction. Goes set-wise (entry_scan_store_set) when every scan is a plain one of a distinct
-- barcode, else one by one (entry_scan_store_each). Called by src/domain/entry/scanBatches.ts
-- for the larger batches.
CREATE OR REPLACE FUNCTION entry_scan_store_batch(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
-- Group commit for scans (src/domain/entry/scanBatches.ts): the entry_scan_store payloads of
-- scans that arrived together, stored in one transaction; answers their results in order.
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
