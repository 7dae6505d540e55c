// The contract fuzzer of test/fuzz/contract-fuzz.test.ts with 10,000+ requests and a new seed.
// Run by `npm run test:stress`, never by `npm test` (test/run.ts leaves this folder out).
process.env.ATRIUM_STRESS = '1';
await import('../fuzz/contract-fuzz.test.ts');
