// The serving processes' Node flag (src/cluster/nodeFlags.ts): added once, never over an
// operator's own choice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withYoungGeneration, YOUNG_GENERATION_FLAG } from '../../src/cluster/nodeFlags.ts';

test('the young-generation flag is added to a command line that has none', () => {
  assert.deepEqual(withYoungGeneration(['--enable-source-maps']), ['--enable-source-maps', YOUNG_GENERATION_FLAG]);
  assert.deepEqual(withYoungGeneration([], '--enable-source-maps'), [YOUNG_GENERATION_FLAG]);
});

test("an operator's size, on the command line or in NODE_OPTIONS, is kept", () => {
  assert.deepEqual(withYoungGeneration(['--max-semi-space-size=64']), ['--max-semi-space-size=64']);
  assert.deepEqual(withYoungGeneration(['--import', 'tsx'], '--enable-source-maps  --max-semi-space-size=8'), ['--import', 'tsx']);
  // V8 takes the underscore spelling too; ours, appended after it, would win over it.
  assert.deepEqual(withYoungGeneration(['--max_semi_space_size=8']), ['--max_semi_space_size=8']);
  assert.deepEqual(withYoungGeneration([], '--max_semi_space_size=8'), []);
});
