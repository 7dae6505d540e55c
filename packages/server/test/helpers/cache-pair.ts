// Two apps on one database for the cache-equivalence tests: one with the in-process caches (as
// `atrium serve` runs them) and one without, with rate and connection limits off. Both are closed
// and the database dropped after the file's tests.
import { after } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { startCaches, type Caches } from '../../src/cache/index.ts';
import { loadConfig } from '../../src/config.ts';
import type { Clock } from '../../src/domain/clock.ts';
import type { freshDatabase } from './db.ts';

export async function cachedAndPlainApps(database: Awaited<ReturnType<typeof freshDatabase>>, clock: Clock) {
  const config = loadConfig({
    ATRIUM_DATA_DIR: '/nonexistent',
    ATRIUM_USER_RATE_LIMIT: '0', ATRIUM_PUBLIC_RATE_LIMIT: '0', ATRIUM_ANON_RATE_LIMIT: '0',
    ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0',
  });
  const caches = (await startCaches(database.url, config, { warn: () => {}, info: () => {} })) as Caches;
  const cached = await buildApp({ database, config, clock, logger: false, caches, lazySchemas: true });
  const plain = await buildApp({ database, config, clock, logger: false, lazySchemas: true });
  after(async () => {
    await cached.close();
    await plain.close();
    await database.drop();
  });
  return { cached, plain, config };
}
