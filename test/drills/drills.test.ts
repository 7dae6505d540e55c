// node:test wrapper of the crash drills (packages/server/scripts/drills), so CI counts each
// check as a test. Not under packages/server/test: `npm test` proves each behaviour once and
// quickly; `npm run test:stress` runs every *.test.ts in this folder. ATRIUM_DRILLS picks some
// drills (.ci/run uses it for the restart of the machine's PostgreSQL 15).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDrills } from '../../packages/server/scripts/drills/run.ts';

test('crash drills', { timeout: 360_000 }, async (t) => {
  const checks = await runDrills();
  assert.ok(checks.length >= (process.env.ATRIUM_DRILLS ? 1 : 10), `the drills ran (${checks.length} checks)`);
  for (const c of checks) {
    await t.test(`${c.drill}: ${c.name}`, () => assert.ok(c.ok, c.detail));
  }
});
