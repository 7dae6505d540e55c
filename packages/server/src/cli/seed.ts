// `atrium seed --demo` / `--remove-demo`, and the demo hook of `atrium serve --demo` (npm start).
import type { Command } from 'commander';
import { formatSummary } from './import.ts';
import { UsageError } from '../config.ts';
import { action, withDatabase } from './runtime.ts';

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
          const { seedDemoPictures } = await import('../domain/demo/demoPictures.ts');
          process.stdout.write(`demo pictures drawn: ${await seedDemoPictures(ctx)}\n`);
        });
      }),
    );
}
