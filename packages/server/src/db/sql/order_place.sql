-- Writes an order in ONE round trip: TypeScript decides everything (prices, rows, barcodes,
-- documents, demands on capacity) and this performs the writes in order: the order, its items,
-- the reservations it consumes, barcodes, documents (flagged for rendering), then capacity_claim.
-- A claim that does not fit raises SQLSTATE AT001 (SOLD_OUT), undoing every write of the call.
-- Called by src/domain/orders/placeOrder.ts and orderBatches.ts, and by order_place_batch.
--
-- p: { order: orders row (snake_case, no id), items: [order_items rows (no id, no order_id)],
--      consume: [reservation ids], codes: [candidate barcodes, spares included],
--      barcodes: [count per item], documents: [{kind, filename (':order_id' is replaced)}],
--      document: {available_until}, claim: {keys, lock_timeout, now,
--      release, expires_at, race_window_ms, demands: [{item (1-based), resource, resource_id,
--      slot_start, slot_end, quantity, capacity}]} }
-- Returns { order, items, barcodes, documents } as written (to_jsonb of the rows).
CREATE OR REPLACE FUNCTION order_place(p jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
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
                             start_at, unit_price_cents, price_cents, vat_pct, tax_included, attendees,
                             voucher_ticket_id, code_language, code_recipient)
    SELECT o.id, x.type, x.museum_id, x.ticket_id, x.event_date_id, x.tour_id, x.language_id, x.quantity,
           x.start_at, x.unit_price_cents, x.price_cents, x.vat_pct, x.tax_included, x.attendees,
           x.voucher_ticket_id, x.code_language, x.code_recipient
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
    -- render_pending: the dispatcher (src/db/sql/documents_dispatch.sql) adds the render job
    -- after this commits; calling the job queue here would NOTIFY, which serialises commits.
    INSERT INTO documents (kind, order_id, account_id, museum_ids, filename, content_type, status,
                           created_at, updated_at, available_until, render_pending)
    VALUES (r->>'kind', o.id, o.account_id, o.museum_ids, replace(r->>'filename', ':order_id', o.id::text), 'application/pdf', 'processing',
            o.created_at, o.created_at, (p->'document'->>'available_until')::timestamptz, true)
    ON CONFLICT (order_id, kind) WHERE kind in ('ticket', 'invoice', 'confirmation') DO NOTHING
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
