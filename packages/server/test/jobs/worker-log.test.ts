// The job runner's log lines carry no statement parameters and no job payload: graphile-worker
// logs a failed job with the whole job row and the raw error, whose Drizzle message repeats the
// bound values (an e-mail, a customer's foreign_id).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { workerLogger } from '../../src/jobs/logger.ts';

test('failed-job lines keep ids and a clean error, never parameters or the payload', () => {
  const lines: string[] = [];
  const sink = (level: string) => (obj: object, msg: string) => void lines.push(JSON.stringify({ level, msg, ...obj }));
  const log = workerLogger({ error: sink('error'), warn: sink('warn'), info: sink('info'), debug: sink('debug') });
  const err = Object.assign(new Error('Failed query: select * from customers where foreign_id = $1\nparams: cust-secret-4711,mara@example.org'), {
    query: 'select * from customers where foreign_id = $1',
    params: ['cust-secret-4711', 'mara@example.org'],
    code: '57014',
  });
  const job = { id: '12', task_identifier: 'mail.send', attempts: 1, max_attempts: 12, payload: { foreign_id: 'cust-secret-4711' }, last_error: 'params: mara@example.org' };
  log.scope({ label: 'worker' }).error(`Failed task 12 (mail.send) with error '${err.message}':\n  ${err.stack}`, { failure: true, job, error: err, duration: 5 });
  log.scope({ label: 'runner' }).warn(`Runner stopping (reason: worker pool exited with error: ${err.message})`);
  assert.equal(lines.length, 2);
  for (const line of lines) {
    assert.doesNotMatch(line, /cust-secret-4711|mara@example\.org/);
  }
  const first = JSON.parse(lines[0]!);
  assert.equal(first.job.id, '12');
  assert.equal(first.job.task, 'mail.send');
  assert.equal(first.err.code, '57014');
});
