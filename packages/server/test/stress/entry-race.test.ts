// The two-gate scan race of test/entry/race.multinode.test.ts, ten rushes instead of one.
// Run by `npm run test:stress`, never by `npm test` (test/run.ts leaves this folder out).
process.env.ATRIUM_STRESS = '1';
await import('../entry/race.multinode.test.ts');
