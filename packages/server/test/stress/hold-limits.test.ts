// The two-node hold-limit bursts of test/multinode/hold-limits.test.ts, two rounds instead of one.
// Run by `npm run test:stress`, never by `npm test` (test/run.ts leaves this folder out).
process.env.ATRIUM_STRESS = '1';
await import('../multinode/hold-limits.test.ts');
