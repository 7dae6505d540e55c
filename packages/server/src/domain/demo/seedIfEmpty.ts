// The demo hook of `atrium serve --demo` (npm start), one node or a cluster's primary.
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { systemClock } from '../clock.ts';

/**
 * Loads the demo catalogue when the database has no museum yet; returns whether it did. Safe
 * when several nodes start at once: the import serialises on a lock and matches records by key,
 * so a second loader updates what the first created instead of duplicating it.
 */
export async function seedDemoIfEmpty(database: Database, _config: Config): Promise<boolean> {
  const ctx = { db: database.db, clock: systemClock };
  const { catalogueIsEmpty, seedDemo } = await import('./seedDemo.ts');
  if (!(await catalogueIsEmpty(ctx))) return false;
  await seedDemo(ctx);
  return true;
}
