-- Indexes a page of tickets and its total can be read from without the table (issue #19,
-- docs/adr/0035-ticket-pages-from-the-index.md).
--
-- Every uncached page of the ticket list counts the caller's matching tickets and skips its
-- offset's rows in id order. Both evaluated the visibility rule (visibilitySql.ts) on each row of
-- the table: `'shop' = any(sales_channels)` unpacks an array per row, and for 2,030 tickets the
-- count alone cost ~0.35 ms of a page's ~0.55 (pgbench, prepared). These partial indexes hold
-- exactly the tickets a channel can ever see (active, offered there), in id order, with the
-- columns the rest of the rule and the usual filters read; the count and the offset are then
-- index-only scans (0.23 and ~0.1 ms). A ticket outside the channel is simply not in the index,
-- so a write of it costs nothing here.
CREATE INDEX IF NOT EXISTS tickets_shop_page ON tickets (id) INCLUDE (museum_id, valid_from, valid_until)
  WHERE active AND 'shop' = ANY (sales_channels);
CREATE INDEX IF NOT EXISTS tickets_reseller_page ON tickets (id) INCLUDE (museum_id, valid_from, valid_until, reseller_account_ids)
  WHERE active AND 'reseller' = ANY (sales_channels);
