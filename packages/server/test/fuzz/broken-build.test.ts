// The fuzzer must be able to fail: on a deliberately broken build (a hook that throws, i.e. a 500,
// when a query value is longer than 500 characters) a short run reports failures on exactly that.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { loadContract } from './contract.ts';
import { seedFixtures } from './fixtures.ts';
import { runFuzz } from './fuzzer.ts';

const t = await testApp({ env: { ATRIUM_RESELLER_RATE_LIMIT: '1000000' } });
after(() => t.close());

// Registered before the app is ready, so it wraps every route like a bug in a shared plugin would.
t.app.addHook('onRequest', async (req) => {
  const query = req.url.split('?')[1] ?? '';
  for (const part of query.split('&')) {
    let value = part.slice(part.indexOf('=') + 1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // undecodable: measured raw
    }
    if (value.length > 500) throw new Error('deliberate bug: long query value');
  }
});

test('the fuzzer reports a failure on a build that breaks on long query values', async () => {
  const pools = await seedFixtures(t);
  const operations = loadContract().operations.filter((op) => op.method === 'GET' && op.params.some((p) => p.in === 'query'));
  // Three requests per operation and class, with a fixed seed (the same few hundred every run),
  // already carry several long query values: enough to show that the fuzzer reports them.
  const report = await runFuzz({ app: t.app, database: t.database, operations, pools, perCombo: 3, seed: 7, classes: ['none', 'user'] });
  assert.ok(report.failedCount > 0, `the broken build was caught (${report.requests} requests)`);
  assert.ok(
    report.failures.every((f) => f.status === 500 && f.problems.includes('server error 500')),
    `only the planted bug fails: ${JSON.stringify(report.failures.find((f) => f.status !== 500))}`,
  );
  assert.ok(report.failures.some((f) => f.request.includes('?')), 'the failure names the request');
});
