// node:test wrapper of the job drills (packages/server/scripts/drills/jobs.ts): the database
// killed under order load, its disk filled while PDFs render, and the server SIGKILLed mid-send;
// every document, mail and webhook must still go out. Slow (several minutes): run by the stress
// tests, not by `npm test`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDrills } from '../../packages/server/scripts/drills/run.ts';

test('job drills', { timeout: 900_000 }, async (t) => {
  process.env.ATRIUM_DRILLS = 'jobs';
  const checks = await runDrills();
  assert.ok(checks.length >= 10, `the drills ran (${checks.length} checks)`);
  for (const c of checks) {
    await t.test(`${c.drill}: ${c.name}`, () => assert.ok(c.ok, c.detail));
  }
});
