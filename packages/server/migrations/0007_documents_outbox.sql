ALTER TABLE "documents" ADD COLUMN "render_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_render_pending" ON "documents" USING btree ("id") WHERE "documents"."render_pending";--> statement-breakpoint
-- Hands due render jobs to graphile-worker in batches (src/jobs/dispatch.ts, ADR 0009). Orders
-- only flag their documents (render_pending) in their own transaction: graphile-worker's
-- add_job NOTIFYs, and PostgreSQL serialises the commits of all transactions that NOTIFY, so
-- calling it from every order capped bookings at one commit at a time across the whole server.
-- Here one call takes up to p_limit flagged documents (SKIP LOCKED: several dispatchers never
-- take the same one), adds one job each with one add_jobs (one NOTIFY), and clears the flags, all
-- in one transaction: a crash before commit leaves them flagged, never flagged-and-lost.
CREATE FUNCTION documents_dispatch(p_limit integer, p_task text, p_max_attempts integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  SELECT array_agg(id ORDER BY id) INTO ids
    FROM (SELECT id FROM documents WHERE render_pending ORDER BY id LIMIT p_limit FOR UPDATE SKIP LOCKED) due;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;
  UPDATE documents SET render_pending = false WHERE id = ANY (ids);
  -- The key folds repeated requests for one document into one waiting job (as enqueue() does).
  PERFORM graphile_worker.add_jobs(ARRAY(
    SELECT ROW(p_task, json_build_object('documentId', i), null, null, p_max_attempts, 'document:' || i, null, null)::graphile_worker.job_spec
      FROM unnest(ids) AS i));
  RETURN array_length(ids, 1);
END $$;
