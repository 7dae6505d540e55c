-- An order's rows as an event carries them: the order, its items (with zone, event, barcodes and
-- entries used, and the gift cards or vouchers a GiftCard/Voucher line sold: id, last four, status), its documents and its discounts (promo code, or a voucher's last four). Called by the outbox triggers (events_order_inserted,
-- events_snapshot) and src/domain/gdpr/outbox.ts; read back by src/notify/snapshot.ts.
-- plpgsql, not LANGUAGE sql, so its statement is prepared once per connection.
CREATE OR REPLACE FUNCTION order_snapshot(p_id integer) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
  SELECT jsonb_build_object(
    'order', to_jsonb(o),
    'items', coalesce((
      SELECT jsonb_agg(jsonb_build_object(
               'row', to_jsonb(i),
               'zone', m.time_zone,
               'event_id', ed.event_id,
               'barcodes', coalesce((SELECT jsonb_agg(jsonb_build_object('id', b.id, 'code', b.code, 'status', b.status) ORDER BY b.id)
                                       FROM barcodes b WHERE b.order_item_id = i.id), '[]'::jsonb),
               'entries_used', coalesce((SELECT sum(s.entries_used) FROM entry_states s WHERE s.order_item_id = i.id), 0),
               'codes', CASE WHEN i.type IN ('GiftCard', 'Voucher') THEN coalesce((
                 SELECT jsonb_agg(x.c ORDER BY x.id) FROM (
                   SELECT g.id, jsonb_build_object('kind', 'gift_card', 'id', g.id, 'last4', g.code_last4,
                                                   'status', CASE WHEN g.voided_at IS NULL THEN 'valid' ELSE 'void' END) AS c
                     FROM gift_cards g WHERE g.order_item_id = i.id
                   UNION ALL
                   SELECT v.id, jsonb_build_object('kind', 'voucher', 'id', v.id, 'last4', v.code_last4,
                                                   'status', CASE WHEN v.voided_at IS NOT NULL THEN 'void' WHEN v.order_id IS NOT NULL THEN 'redeemed' ELSE 'valid' END)
                     FROM single_purpose_vouchers v WHERE v.order_item_id = i.id) x), '[]'::jsonb) END)
             ORDER BY i.id)
        FROM order_items i JOIN museums m ON m.id = i.museum_id LEFT JOIN event_dates ed ON ed.id = i.event_date_id
       WHERE i.order_id = o.id), '[]'::jsonb),
    'documents', coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', d.id, 'kind', d.kind, 'status', d.status, 'filename', d.filename,
                                          'available_until', d.available_until) ORDER BY d.id)
        FROM documents d WHERE d.order_id = o.id), '[]'::jsonb),
    'discounts', coalesce((
      SELECT jsonb_agg(jsonb_build_object('promo_code', pc.code, 'voucher_last4', v.code_last4, 'amount_cents', od.amount_cents,
                                          'order_item_id', od.order_item_id) ORDER BY od.id)
        FROM order_discounts od LEFT JOIN promo_codes pc ON pc.id = od.promo_code_id
             LEFT JOIN single_purpose_vouchers v ON v.id = od.voucher_id
       WHERE od.order_id = o.id), '[]'::jsonb))
  FROM orders o WHERE o.id = p_id);
END $$;
