// `atrium customer export ID` / `atrium customer erase ID`: the GDPR verbs of the API
// (GET /customers/:id/export, POST /customers/:id/erase) for the operator, with full scope.
// ID is the numeric id or the foreign_id. Output is the JSON the API answers.
import type { Command } from 'commander';
import { eraseCustomer } from '../domain/gdpr/eraseCustomer.ts';
import { exportCustomer } from '../domain/gdpr/exportCustomer.ts';
import { action, withDatabase } from './runtime.ts';

export function customerCommands(program: Command) {
  const customer = program.command('customer').description('GDPR: export or erase everything stored about a person');

  customer
    .command('export <id>')
    .description('print everything stored about the customer as JSON (numeric id or foreign_id)')
    .action(
      action(async (id: string) => {
        await withDatabase(async (ctx) => {
          process.stdout.write(JSON.stringify({ export: await exportCustomer(ctx, { ref: id }) }, null, 2) + '\n');
        });
      }),
    );

  customer
    .command('erase <id>')
    .description('anonymise the customer everywhere (invoices are kept as tax law requires); prints what changed')
    .action(
      action(async (id: string) => {
        await withDatabase(async (ctx) => {
          process.stdout.write(JSON.stringify({ erasure: await eraseCustomer(ctx, { ref: id }) }, null, 2) + '\n');
        });
      }),
    );
}
