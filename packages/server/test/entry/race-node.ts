// A test-only server process for the control runs of races between nodes: the real app on the
// given database, listening on 127.0.0.1:0, with the scan store's compare-and-set switched off
// when ENTRY_UNLOCKED=1, the hold limits' account lock when HOLD_LIMITS_UNLOCKED=1 and the gift
// card's guarded debit when GIFT_CARD_UNGUARDED=1. The
// switches are test options of buildApp, never read from the environment by production code.
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';

const database = openDatabase(process.env.DATABASE_URL!, { max: 20 });
const app = await buildApp({
  database,
  config: loadConfig(process.env),
  logger: false,
  // Schemas compiled on first use; a test node lives for a few requests, so none in the background.
  lazySchemas: true,
  warmSchemas: false,
  testing: { disableEntryLocks: process.env.ENTRY_UNLOCKED === '1', disableHoldLimitLock: process.env.HOLD_LIMITS_UNLOCKED === '1', disableGiftCardGuard: process.env.GIFT_CARD_UNGUARDED === '1' },
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`ready in 0 ms on ${address}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => database.close()).then(() => process.exit(0));
});
