// The reservation race of test/concurrency/reservations.test.ts, ten rounds instead of one.
// Run by `npm run test:stress`, never by `npm test` (test/run.ts leaves this folder out).
process.env.ATRIUM_STRESS = '1';
await import('../concurrency/reservations.test.ts');
