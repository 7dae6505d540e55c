// `atrium import FILE`: loads a declarative catalogue file (YAML or JSON; format documented in
// examples/catalogue.example.yaml). All errors are reported with file:line:column and nothing is
// written unless the whole file is valid.
import fs from 'node:fs';
import type { Command } from 'commander';
import type { Summary } from '../domain/catalog-import/importCatalogue.ts';
import { action, UsageError, withDatabase } from './runtime.ts';

const LABELS: Record<keyof Summary, string> = {
  language: 'languages',
  museum: 'museums',
  exhibition: 'exhibitions',
  quota: 'quotas',
  ticket: 'tickets',
  event: 'events',
  event_date: 'event dates',
  tour: 'tours',
};

export function formatSummary(summary: Summary): string {
  const lines = (Object.keys(LABELS) as Array<keyof Summary>)
    .filter((k) => summary[k].created + summary[k].updated > 0)
    .map((k) => `  ${LABELS[k].padEnd(12)} ${summary[k].created} created, ${summary[k].updated} updated`);
  return lines.length ? lines.join('\n') + '\n' : '  (the file has no records)\n';
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
  }
}

export function importCommands(program: Command) {
  program
    .command('import <file>')
    .description('create or update the catalogue from a YAML or JSON file (see examples/catalogue.example.yaml)')
    .option('--dry-run', 'validate the file and report problems without changing anything')
    .action(
      action(async (file: string, o: { dryRun?: boolean }) => {
        const text = readText(file);
        // Loaded on use, so that `atrium --help` and other commands start quickly.
        const { readCatalogueSource } = await import('../domain/catalog-import/source.ts');
        const { importCatalogue } = await import('../domain/catalog-import/importCatalogue.ts');
        const source = readCatalogueSource(text, file);
        await withDatabase(async (ctx) => {
          const summary = await importCatalogue(ctx, { source, dryRun: o.dryRun ?? false });
          if (!summary) process.stdout.write(`${file} is valid; nothing was changed (--dry-run)\n`);
          else process.stdout.write(`imported ${file}:\n${formatSummary(summary)}`);
        });
      }),
    );
}
