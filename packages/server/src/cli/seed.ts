// `atrium seed --demo` / `--remove-demo`, and the demo hook of `atrium serve --demo` (npm start).
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { systemClock } from '../domain/clock.ts';
import { formatSummary } from './import.ts';
import { action, UsageError, withDatabase } from './runtime.ts';

/**
 * Loads the demo catalogue when the database has no museum yet; returns whether it did. Safe
 * when several nodes start at once: the import serialises on a lock and matches records by key,
 * so a second loader updates what the first created instead of duplicating it.
 */
export async function seedDemoIfEmpty(database: Database, _config: Config): Promise<boolean> {
  const ctx = { db: database.db, clock: systemClock };
  const { catalogueIsEmpty, seedDemo } = await import('../domain/demo/seedDemo.ts');
  if (!(await catalogueIsEmpty(ctx))) return false;
  await seedDemo(ctx);
  return true;
}

export function seedCommands(program: Command) {
  program
    .command('seed')
    .description('load sample data; re-running updates it and never duplicates')
    .option('--demo', 'the demo catalogue: two museums, tickets, events and tours for the next 60 days')
    .option('--remove-demo', 'remove the demo catalogue; what has orders is kept and listed with why')
    .action(
      action(async (o: { demo?: boolean; removeDemo?: boolean }) => {
        if (o.demo === o.removeDemo) throw new UsageError('say what to do: atrium seed --demo, or atrium seed --remove-demo');
        if (o.removeDemo) {
          const { removeDemo } = await import('../domain/catalog-import/removeDemo.ts');
          await withDatabase(async (ctx) => {
            const summary = await removeDemo(ctx);
            const removed = Object.values(summary.counts).reduce((n, c) => n + c.removed, 0);
            const head = summary.kept.length ? `demo catalogue: ${removed} records removed, ${summary.kept.length} kept` : `demo catalogue removed (${removed} records)`;
            process.stdout.write(removed || summary.kept.length ? `${head}:\n${formatSummary(summary, true, 1_000)}` : 'no demo catalogue to remove\n');
          });
          return;
        }
        const { seedDemo } = await import('../domain/demo/seedDemo.ts');
        await withDatabase(async (ctx) => {
          const summary = await seedDemo(ctx);
          process.stdout.write(`demo catalogue loaded:\n${formatSummary(summary)}`);
        });
      }),
    );
}
