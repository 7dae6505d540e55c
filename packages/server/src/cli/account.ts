// `atrium account mail on|off ACCOUNT`: the operator's switch for visitor mail of one account's
// orders and requests (the verb behind PUT /api/v4/accounts/:id/notify_settings). ACCOUNT is the
// numeric id or the account's name (which must then be unique). Prints the resulting setting.
import type { Command } from 'commander';
import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema/index.ts';
import type { Ctx } from '../domain/context.ts';
import { getNotifySettings, setNotifySettings } from '../domain/webhooks/notifySettings.ts';
import { UsageError } from '../config.ts';
import { action, withDatabase } from './runtime.ts';

async function accountId(ctx: Ctx, ref: string): Promise<number> {
  if (/^\d{1,9}$/.test(ref)) return Number(ref);
  const rows = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.name, ref));
  if (rows.length === 0) throw new UsageError(`no account named "${ref}" (use its name or numeric id)`);
  if (rows.length > 1) throw new UsageError(`${rows.length} accounts are named "${ref}": use the numeric id (${rows.map((r) => r.id).join(', ')})`);
  return rows[0]!.id;
}

export function accountCommands(program: Command) {
  const account = program.command('account').description("an account's settings");
  account
    .command('mail <state> <account>')
    .description("turn visitor mail for the account's orders and requests on or off (account: numeric id or name); `status` shows it")
    .action(
      action(async (state: string, ref: string) => {
        if (!['on', 'off', 'status'].includes(state)) throw new UsageError(`mail must be on, off or status, got "${state}"`);
        await withDatabase(async (ctx) => {
          const id = await accountId(ctx, ref);
          const s = state === 'status' ? await getNotifySettings(ctx, id) : await setNotifySettings(ctx, id, { mail_enabled: state === 'on' });
          process.stdout.write(`account ${s.accountId}: visitor mail ${s.mailEnabled ? 'on' : 'off'}\n`);
        });
      }),
    );
}
