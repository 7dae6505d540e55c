// The demo hook of `atrium serve --demo` (npm start), one node or a cluster's primary.
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { systemClock } from '../clock.ts';
import { systemCtx } from '../context.ts';

/**
 * Loads the demo catalogue when the database has no museum yet; returns whether it did. Safe
 * when several nodes start at once: the import serialises on a lock and matches records by key,
 * so a second loader updates what the first created instead of duplicating it.
 */
export async function seedDemoIfEmpty(database: Database, config: Config): Promise<boolean> {
  const ctx = { db: database.db, clock: systemClock };
  const { catalogueIsEmpty, seedDemo } = await import('./seedDemo.ts');
  if (!(await catalogueIsEmpty(ctx))) return false;
  await seedDemo(ctx);
  // The pictures are a nicety: a media directory that cannot be written must not stop the demo.
  const { seedDemoPictures } = await import('./demoPictures.ts');
  await seedDemoPictures(systemCtx({ ...ctx, config })).catch((err: Error) => {
    process.stderr.write(`atrium: demo pictures skipped: ${err.message}\n`);
  });
  return true;
}
