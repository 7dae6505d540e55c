// Gapless invoice numbers of test/multinode/invoice-numbers.test.ts with 100 concurrent orders
// instead of 30. Run by `npm run test:stress`, never by `npm test` (test/run.ts leaves this
// folder out).
process.env.ATRIUM_STRESS = '1';
await import('../multinode/invoice-numbers.test.ts');
