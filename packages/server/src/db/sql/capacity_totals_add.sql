-- Keeps capacity_totals (running totals of permanent allocations, read by capacity_claim) on
-- every write to capacity_allocations, whoever writes: adds a row that becomes counted. A row
-- counts while it is permanent: resource other than 'tour', released_at and expires_at null.
-- Pairs with capacity_totals_remove (src/db/sql/capacity_totals_remove.sql).
--
-- Updates remove the old row's part, then add the new row's: AFTER triggers of one event fire
-- in name order, so capacity_totals_update_1 (remove) runs before capacity_totals_update_2.
CREATE OR REPLACE FUNCTION capacity_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO capacity_totals AS t (resource, resource_id, slot_start, permanent)
  VALUES (NEW.resource, NEW.resource_id, NEW.slot_start, NEW.quantity)
  ON CONFLICT (resource, resource_id, slot_start) DO UPDATE SET permanent = t.permanent + EXCLUDED.permanent;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "capacity_totals_insert" ON "capacity_allocations";
CREATE TRIGGER capacity_totals_insert AFTER INSERT ON capacity_allocations FOR EACH ROW
  WHEN (NEW.resource <> 'tour' AND NEW.released_at IS NULL AND NEW.expires_at IS NULL)
  EXECUTE FUNCTION capacity_totals_add();

DROP TRIGGER IF EXISTS "capacity_totals_update_2" ON "capacity_allocations";
CREATE TRIGGER capacity_totals_update_2 AFTER UPDATE ON capacity_allocations FOR EACH ROW
  WHEN (NEW.resource <> 'tour' AND NEW.released_at IS NULL AND NEW.expires_at IS NULL
        AND (OLD.released_at IS NOT NULL OR OLD.expires_at IS NOT NULL OR NEW.resource IS DISTINCT FROM OLD.resource
             OR NEW.resource_id IS DISTINCT FROM OLD.resource_id OR NEW.slot_start IS DISTINCT FROM OLD.slot_start
             OR NEW.quantity IS DISTINCT FROM OLD.quantity))
  EXECUTE FUNCTION capacity_totals_add();
