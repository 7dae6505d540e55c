-- Keeps capacity_totals on every write to capacity_allocations, whoever writes: takes away a row
-- that stops being counted (deleted, released, expiring, moved, or its quantity changed).
-- Pairs with capacity_totals_add (src/db/sql/capacity_totals_add.sql), which explains the rule
-- and the order of the two update triggers.
CREATE OR REPLACE FUNCTION capacity_totals_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE capacity_totals SET permanent = permanent - OLD.quantity
   WHERE resource = OLD.resource AND resource_id = OLD.resource_id AND slot_start = OLD.slot_start;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "capacity_totals_delete" ON "capacity_allocations";
CREATE TRIGGER capacity_totals_delete AFTER DELETE ON capacity_allocations FOR EACH ROW
  WHEN (OLD.resource <> 'tour' AND OLD.released_at IS NULL AND OLD.expires_at IS NULL)
  EXECUTE FUNCTION capacity_totals_remove();

DROP TRIGGER IF EXISTS "capacity_totals_update_1" ON "capacity_allocations";
CREATE TRIGGER capacity_totals_update_1 AFTER UPDATE ON capacity_allocations FOR EACH ROW
  WHEN (OLD.resource <> 'tour' AND OLD.released_at IS NULL AND OLD.expires_at IS NULL
        AND (NEW.released_at IS NOT NULL OR NEW.expires_at IS NOT NULL OR NEW.resource IS DISTINCT FROM OLD.resource
             OR NEW.resource_id IS DISTINCT FROM OLD.resource_id OR NEW.slot_start IS DISTINCT FROM OLD.slot_start
             OR NEW.quantity IS DISTINCT FROM OLD.quantity))
  EXECUTE FUNCTION capacity_totals_remove();
