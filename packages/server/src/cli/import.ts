// `atrium import FILE|DIR [--dry-run] [--prune]`: loads a declarative catalogue (YAML or JSON;
// format documented in examples/catalogue.example.yaml) and merges it into the database
// (docs/adr/0014-catalogue-import-merges.md). A directory is one catalogue made of its *.yaml,
// *.yml and *.json files. All errors are reported with file:line:column and nothing is written
// unless the whole catalogue is valid.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CatalogueSource } from '../domain/catalog-import/source.ts';
import { formatSummary } from '../domain/catalog-import/report.ts';
import { UsageError } from '../config.ts';
import { action, withDatabase } from './runtime.ts';

export { formatSummary };

const EXTENSIONS = /\.(ya?ml|json)$/i;
const MAX_FILES = 1_000;

function failure(file: string, e: unknown): UsageError {
  const code = (e as NodeJS.ErrnoException).code;
  return new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
}

/** The file, or each catalogue file of the directory (sorted by name, subdirectories included). */
function listFiles(target: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (e) {
    throw failure(target, e);
  }
  if (!stat.isDirectory()) return [target];
  const files = (fs.readdirSync(target, { recursive: true }) as string[])
    .filter((f) => EXTENSIONS.test(f) && !path.basename(f).startsWith('.'))
    .map((f) => path.join(target, f))
    .filter((f) => fs.statSync(f).isFile())
    .sort();
  if (!files.length) throw new UsageError(`${target} has no catalogue files (*.yaml, *.yml, *.json)`);
  if (files.length > MAX_FILES) throw new UsageError(`${target} has more than ${MAX_FILES} catalogue files`);
  return files;
}

async function readSources(target: string): Promise<CatalogueSource> {
  // Loaded on use, so that `atrium --help` and other commands start quickly.
  const { mergeSources, readCatalogueSource } = await import('../domain/catalog-import/source.ts');
  const files = listFiles(target);
  const sources = files.map((f) => {
    try {
      return readCatalogueSource(fs.readFileSync(f, 'utf8'), f);
    } catch (e) {
      throw failure(f, e);
    }
  });
  return files.length === 1 && files[0] === target ? sources[0]! : mergeSources(target, sources);
}

export function importCommands(program: Command) {
  program
    .command('import <file>')
    .description('merge a YAML or JSON catalogue file, or a directory of them, into the catalogue (see examples/catalogue.example.yaml)')
    .option('--dry-run', 'print what would be created, changed and removed, and change nothing')
    .option('--prune', 'also remove catalogue records the file does not name (never those with orders: they are listed)')
    .action(
      action(async (file: string, o: { dryRun?: boolean; prune?: boolean }) => {
        const source = await readSources(file);
        const { importCatalogue } = await import('../domain/catalog-import/importCatalogue.ts');
        await withDatabase(async (ctx) => {
          const summary = await importCatalogue(ctx, { source, dryRun: o.dryRun ?? false, prune: o.prune ?? false });
          const head = summary.dryRun ? `${file} is valid; the plan (--dry-run: nothing was changed):` : `imported ${file}:`;
          process.stdout.write(`${head}\n${formatSummary(summary, summary.dryRun)}`);
        });
      }),
    );
}
