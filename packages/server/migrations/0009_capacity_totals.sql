-- Running totals of permanent allocations (ADR 0011). capacity_claim checked a slot by summing
-- every live allocation of it under the slot's lock: O(allocations), about 1 ms at 5,000 rows, paid
-- by every order on a hot slot or a busy day quota while the slot stood still. Permanent
-- allocations (not released, no expiry: finalized orders) now add up in capacity_totals, kept by
-- the triggers below on every insert, update and delete, whoever writes; the claim reads that one
-- row plus the slot's temporary allocations (holds, pending orders), which have their own index.
--
-- Every write that changes a total holds the slot's capacity lock (claims, finalize, and since
-- this migration releaseCapacity too), so writers never queue on a totals row in an order that
-- could deadlock, and a claim under the lock reads a total no one else is changing.
CREATE TABLE "capacity_totals" (
	"resource" text NOT NULL,
	"resource_id" integer NOT NULL,
	"slot_start" timestamp with time zone NOT NULL,
	"permanent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "capacity_totals_resource_resource_id_slot_start_pk" PRIMARY KEY("resource","resource_id","slot_start")
);
--> statement-breakpoint
CREATE INDEX "capacity_allocations_temporary" ON "capacity_allocations" USING btree ("resource","resource_id","slot_start") WHERE "capacity_allocations"."released_at" is null and "capacity_allocations"."expires_at" is not null;
--> statement-breakpoint
CREATE FUNCTION capacity_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO capacity_totals AS t (resource, resource_id, slot_start, permanent)
  VALUES (NEW.resource, NEW.resource_id, NEW.slot_start, NEW.quantity)
  ON CONFLICT (resource, resource_id, slot_start) DO UPDATE SET permanent = t.permanent + EXCLUDED.permanent;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION capacity_totals_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE capacity_totals SET permanent = permanent - OLD.quantity
   WHERE resource = OLD.resource AND resource_id = OLD.resource_id AND slot_start = OLD.slot_start;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A row counts in the total while it is permanent: resource other than 'tour', released_at and
-- expires_at null. Each trigger fires only on a change into or out of that state (or a change of
-- a counted row), so holds and pending orders never touch capacity_totals.
CREATE TRIGGER capacity_totals_insert AFTER INSERT ON capacity_allocations FOR EACH ROW
  WHEN (NEW.resource <> 'tour' AND NEW.released_at IS NULL AND NEW.expires_at IS NULL)
  EXECUTE FUNCTION capacity_totals_add();
--> statement-breakpoint
CREATE TRIGGER capacity_totals_delete AFTER DELETE ON capacity_allocations FOR EACH ROW
  WHEN (OLD.resource <> 'tour' AND OLD.released_at IS NULL AND OLD.expires_at IS NULL)
  EXECUTE FUNCTION capacity_totals_remove();
--> statement-breakpoint
-- Updates: remove the old row's part, then add the new row's (both fire for a counted row whose
-- quantity or slot changes; AFTER triggers of one event fire in name order: _1 before _2).
CREATE TRIGGER capacity_totals_update_1 AFTER UPDATE ON capacity_allocations FOR EACH ROW
  WHEN (OLD.resource <> 'tour' AND OLD.released_at IS NULL AND OLD.expires_at IS NULL
        AND (NEW.released_at IS NOT NULL OR NEW.expires_at IS NOT NULL OR NEW.resource IS DISTINCT FROM OLD.resource
             OR NEW.resource_id IS DISTINCT FROM OLD.resource_id OR NEW.slot_start IS DISTINCT FROM OLD.slot_start
             OR NEW.quantity IS DISTINCT FROM OLD.quantity))
  EXECUTE FUNCTION capacity_totals_remove();
--> statement-breakpoint
CREATE TRIGGER capacity_totals_update_2 AFTER UPDATE ON capacity_allocations FOR EACH ROW
  WHEN (NEW.resource <> 'tour' AND NEW.released_at IS NULL AND NEW.expires_at IS NULL
        AND (OLD.released_at IS NOT NULL OR OLD.expires_at IS NOT NULL OR NEW.resource IS DISTINCT FROM OLD.resource
             OR NEW.resource_id IS DISTINCT FROM OLD.resource_id OR NEW.slot_start IS DISTINCT FROM OLD.slot_start
             OR NEW.quantity IS DISTINCT FROM OLD.quantity))
  EXECUTE FUNCTION capacity_totals_add();
--> statement-breakpoint
-- What is already booked (the triggers exist from here on, in this same transaction).
INSERT INTO capacity_totals (resource, resource_id, slot_start, permanent)
SELECT resource, resource_id, slot_start, sum(quantity)
  FROM capacity_allocations
 WHERE resource <> 'tour' AND released_at IS NULL AND expires_at IS NULL
 GROUP BY resource, resource_id, slot_start;
--> statement-breakpoint
-- capacity_claim as in migration 0008, its check of quota slots and event dates now reading the
-- running total.
CREATE OR REPLACE FUNCTION capacity_claim(
  p_keys bigint[],
  p_lock_timeout text,
  p_now timestamptz,
  p_release bigint[],
  p_resource text[],
  p_resource_id integer[],
  p_slot_start timestamptz[],
  p_slot_end timestamptz[],
  p_quantity integer[],
  p_capacity integer[],
  p_reservation_id bigint[],
  p_order_item_id bigint[],
  p_expires_at timestamptz[],
  p_race_window_ms integer
) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  used integer;
  inserted bigint[] := '{}';
  new_id bigint;
BEGIN
  -- A null timeout skips the locks: test-only control runs that show the oversell they prevent.
  IF p_lock_timeout IS NOT NULL THEN
    PERFORM set_config('lock_timeout', p_lock_timeout, true);
    FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
      IF current_setting('atrium.claim_nowait', true) = 'on' THEN
        IF NOT pg_try_advisory_xact_lock(p_keys[i]) THEN
          RAISE EXCEPTION 'capacity lock busy' USING ERRCODE = 'AT002';
        END IF;
      ELSE
        PERFORM pg_advisory_xact_lock(p_keys[i]);
      END IF;
    END LOOP;
  END IF;

  IF coalesce(array_length(p_release, 1), 0) > 0 THEN
    UPDATE capacity_allocations SET released_at = p_now
     WHERE released_at IS NULL AND reservation_id = ANY (p_release);
  END IF;

  FOR i IN 1 .. coalesce(array_length(p_resource, 1), 0) LOOP
    IF p_resource[i] = 'tour' THEN
      SELECT coalesce(max(n), 0) INTO used FROM (
        SELECT p.t, sum(r.quantity) AS n
          FROM (
            SELECT p_slot_start[i] AS t
            UNION
            SELECT ca.slot_start FROM capacity_allocations ca
             WHERE ca.resource = 'tour' AND ca.resource_id = p_resource_id[i]
               AND ca.slot_start > p_slot_start[i] AND ca.slot_start < p_slot_end[i]
               AND ca.released_at IS NULL AND (ca.expires_at IS NULL OR ca.expires_at > p_now)
          ) p
          JOIN capacity_allocations r
            ON r.resource = 'tour' AND r.resource_id = p_resource_id[i]
           AND r.slot_start <= p.t AND coalesce(r.slot_end, r.slot_start) > p.t
           AND r.released_at IS NULL AND (r.expires_at IS NULL OR r.expires_at > p_now)
         GROUP BY p.t
      ) peaks;
    ELSE
      -- The permanent part from its running total, the temporary part (holds, pending orders)
      -- from its own rows: together the same rule as liveAt() in used.ts.
      SELECT coalesce((SELECT t.permanent FROM capacity_totals t
                        WHERE t.resource = p_resource[i] AND t.resource_id = p_resource_id[i] AND t.slot_start = p_slot_start[i]), 0)
           + coalesce((SELECT sum(ca.quantity) FROM capacity_allocations ca
                        WHERE ca.resource = p_resource[i] AND ca.resource_id = p_resource_id[i] AND ca.slot_start = p_slot_start[i]
                          AND ca.released_at IS NULL AND ca.expires_at IS NOT NULL AND ca.expires_at > p_now), 0)
        INTO used;
    END IF;

    IF used + p_quantity[i] > p_capacity[i] THEN
      DELETE FROM capacity_allocations WHERE id = ANY (inserted);
      RETURN i;
    END IF;

    IF p_race_window_ms > 0 THEN
      PERFORM pg_sleep(p_race_window_ms / 1000.0);
    END IF;

    INSERT INTO capacity_allocations
      (resource, resource_id, slot_start, slot_end, quantity, reservation_id, order_item_id, expires_at, created_at)
    VALUES
      (p_resource[i], p_resource_id[i], p_slot_start[i], p_slot_end[i], p_quantity[i],
       p_reservation_id[i], p_order_item_id[i], p_expires_at[i], p_now)
    RETURNING id INTO new_id;
    inserted := inserted || new_id;
  END LOOP;
  RETURN 0;
END $$;
