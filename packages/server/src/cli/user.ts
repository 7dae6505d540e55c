// `atrium user create|list|disable|enable|reset-password`: staff users of the console. A generated
// password is printed once (alone on the last line); --password-stdin reads one instead. Every
// change is in the audit log as made at the command line, with the OS user who ran it.
import type { Command } from 'commander';
import { createStaffUser, disableStaffUser, enableStaffUser, listStaffUsers, resetStaffPassword } from '../domain/staff/users.ts';
import { UsageError } from '../config.ts';
import { action, osUser, parseIdList, withDatabase } from './runtime.ts';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin: pipe the password in, e.g. `echo "$PW" | atrium user create …`');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const pw = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (!pw) throw new UsageError('--password-stdin: no password on standard input');
  return pw;
}

const key = (s: string): string | number => (/^\d+$/.test(s) ? Number(s) : s);
const operator = () => ({ cli: true as const, osUser: osUser() });

export function userCommands(program: Command) {
  const user = program.command('user').description('staff users of the web console (/console)');

  user
    .command('create')
    .description('create a staff user; a generated password is printed alone on the last line, once')
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--role <role>', 'admin, manager, box_office or viewer')
    .option('--name <name>', 'display name shown in the console')
    .option('--museums <ids>', 'comma list of museum ids the user works for (default: all)')
    .option('--locale <locale>', 'de or en (default: de)')
    .option('--password-stdin', 'read the password from standard input instead of generating one')
    .action(
      action(async (o: { email: string; name?: string; role: string; museums?: string; locale?: string; passwordStdin?: boolean }) => {
        const password = o.passwordStdin ? await readStdin() : undefined;
        await withDatabase(async (ctx) => {
          const r = await createStaffUser(ctx, operator(), {
            email: o.email, role: o.role,
            ...(o.name ? { name: o.name } : {}),
            museumIds: o.museums ? parseIdList(o.museums, '--museums') : [],
            ...(o.locale ? { locale: o.locale } : {}),
            ...(password ? { password } : {}),
          });
          process.stdout.write(`created staff user #${r.user.id} ${r.user.email} (${r.user.role}${r.user.museumIds.length ? `, museums ${r.user.museumIds.join(',')}` : ', all museums'}).\n`);
          if (!password) process.stdout.write(`Sign in at /console with this password; it is shown only once.\n${r.password}\n`);
        });
      }),
    );

  user
    .command('list')
    .description('list staff users')
    .option('--json', 'machine-readable output')
    .action(
      action(async (o: { json?: boolean }) => {
        await withDatabase(async (ctx) => {
          const rows = await listStaffUsers(ctx);
          if (o.json) return void process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
          if (rows.length === 0) return void process.stdout.write('no staff users; create one with `atrium user create --email … --role admin`\n');
          for (const u of rows) {
            process.stdout.write(`#${u.id}  ${u.email}${u.name ? ` (${u.name})` : ''}  ${u.role}  museums: ${u.museumIds.length ? u.museumIds.join(',') : 'all'}  ${u.locale}${u.disabledAt ? `  disabled ${u.disabledAt.toISOString()}` : ''}\n`);
          }
        });
      }),
    );

  user
    .command('disable <user>')
    .description('disable a staff user (by id or email) and end all their sessions')
    .action(
      action(async (who: string) => {
        await withDatabase(async (ctx) => {
          const u = await disableStaffUser(ctx, operator(), key(who));
          process.stdout.write(`disabled staff user #${u.id} ${u.email}; their sessions have ended.\n`);
        });
      }),
    );

  user
    .command('enable <user>')
    .description('let a disabled staff user (by id or email) sign in again')
    .action(
      action(async (who: string) => {
        await withDatabase(async (ctx) => {
          const u = await enableStaffUser(ctx, operator(), key(who));
          process.stdout.write(`enabled staff user #${u.id} ${u.email}.\n`);
        });
      }),
    );

  user
    .command('reset-password <user>')
    .description('give a staff user (by id or email) a new password, printed once; ends their sessions')
    .option('--password-stdin', 'read the new password from standard input instead of generating one')
    .action(
      action(async (who: string, o: { passwordStdin?: boolean }) => {
        const password = o.passwordStdin ? await readStdin() : undefined;
        await withDatabase(async (ctx) => {
          const r = await resetStaffPassword(ctx, operator(), key(who), password);
          process.stdout.write(`new password for staff user #${r.user.id} ${r.user.email}; their sessions have ended.\n`);
          if (!password) process.stdout.write(`It is shown only once.\n${r.password}\n`);
        });
      }),
    );
}
