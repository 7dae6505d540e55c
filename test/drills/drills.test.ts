// node:test wrapper of the crash drills (packages/server/scripts/drills), so CI counts each
// check as a test. Not under packages/server/test: `npm test` runs twice in CI and the drills
// take about two minutes; .ci/run runs this once, after the suites.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDrills } from '../../packages/server/scripts/drills/run.ts';

test('crash drills', { timeout: 360_000 }, async (t) => {
  const checks = await runDrills();
  assert.ok(checks.length >= 10, `the drills ran (${checks.length} checks)`);
  for (const c of checks) {
    await t.test(`${c.drill}: ${c.name}`, () => assert.ok(c.ok, c.detail));
  }
});
