-- Hands due render jobs to graphile-worker in batches: takes up to p_limit flagged documents
-- (render_pending, SKIP LOCKED), adds one job each with one add_jobs (one NOTIFY), clears the
-- flags, all in one transaction. Called by src/jobs/dispatch.ts. Orders only flag documents, as
-- a NOTIFY in every order's transaction would serialise all booking commits.
CREATE OR REPLACE FUNCTION documents_dispatch(p_limit integer, p_task text, p_max_attempts integer) RETURNS integer LANGUAGE plpgsql AS $$
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
