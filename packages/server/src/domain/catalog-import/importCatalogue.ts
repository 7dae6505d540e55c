// Imports a declarative catalogue document (`atrium import FILE`, the demo seed, and later an
// HTTP endpoint): validate everything first, report every problem with its position, and only
// then write all of it in one transaction, so a bad file changes nothing. The write merges
// (docs/adr/0014-catalogue-import-merges.md): what the file names is created or updated, the
// rest is left alone unless `prune`. A dry run is the same transaction rolled back, so its plan
// is exactly what the import would do.
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { localDateOf } from '../time.ts';
import { applyCatalogue, unknownResellers } from './apply.ts';
import { removeRecords, unnamed } from './prune.ts';
import { emptySummary, type Summary } from './report.ts';
import { formatPath, type CatalogueSource, type Issue, type Path } from './source.ts';
import { validateCatalogue } from './validate.ts';

export interface ImportInput {
  /** The parsed document (plain data, e.g. JSON.parse output or a built object). */
  document?: unknown;
  /** Or a read file: positions then appear in error messages. */
  source?: CatalogueSource;
  /** Work out and report everything, then roll it back: nothing changes. */
  dryRun?: boolean;
  /** Also remove keyed records the file does not name (never those with orders). */
  prune?: boolean;
}

/** Thrown to roll back a dry run's transaction. */
const DRY_RUN = Symbol('dry run');

export type { Summary };

function format(issues: Issue[], where: ((path: Path, atKey?: boolean) => string) | undefined, label = formatPath): string[] {
  const lines = issues.map((i) => ({
    at: where ? where(i.path, i.atKey) : '',
    text: `${label(i.path)}: ${i.message}`,
  }));
  // In file order: line, then column (positions are "name:line:col").
  const num = (at: string) => at.split(':').slice(-2).map(Number) as [number, number];
  if (where) lines.sort((a, b) => a.at.split(':').slice(0, -2).join(':').localeCompare(b.at.split(':').slice(0, -2).join(':')) || num(a.at)[0] - num(b.at)[0] || num(a.at)[1] - num(b.at)[1]);
  return lines.map((l) => (l.at ? `${l.at}: ${l.text}` : l.text));
}

function rejected(name: string, errors: string[]): DomainError {
  const n = errors.length;
  return new DomainError('VALIDATION_FAILED', `${name} is invalid (${n} error${n === 1 ? '' : 's'}); nothing was changed`, { errors });
}

export async function importCatalogue(ctx: Pick<Ctx, 'db' | 'clock'>, input: ImportInput): Promise<Summary> {
  const name = input.source?.name ?? 'catalogue';
  if (input.source?.syntaxErrors.length) throw rejected(name, input.source.syntaxErrors);
  const document = input.source ? input.source.value : input.document;
  const where = input.source?.where;

  const now = ctx.clock.now();
  const { issues, plan } = validateCatalogue(document, localDateOf(now, 'UTC'));
  if (issues.length === 0) {
    const missing = await unknownResellers(ctx.db, [...new Set(plan.resellerRefs.map((r) => r.id))]);
    for (const r of plan.resellerRefs) {
      if (missing.has(r.id)) issues.push({ path: r.path, message: `no reseller account #${r.id} (see atrium token list)` });
    }
  }
  if (issues.length) throw rejected(name, format(issues, where, input.source?.label));
  const summary = emptySummary(input.dryRun ?? false);
  try {
    await transaction(ctx.db, async (tx) => {
      const applied = await applyCatalogue(tx, plan, now, summary);
      if (input.prune) await removeRecords(tx, await unnamed(tx, applied.named), summary);
      if (input.dryRun) throw DRY_RUN;
    });
  } catch (e) {
    if (e !== DRY_RUN) throw e;
  }
  return summary;
}
