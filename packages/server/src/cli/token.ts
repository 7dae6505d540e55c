// `atrium token create|list|revoke|rotate`: partner tokens are issued by the operator (spec 5.4).
import type { Command } from 'commander';
import { createToken } from '../domain/accounts/createToken.ts';
import { auditedByOperator } from '../domain/accounts/operatorAudit.ts';
import { listTokens } from '../domain/accounts/listTokens.ts';
import { revokeToken } from '../domain/accounts/revokeToken.ts';
import { rotateToken } from '../domain/accounts/rotateToken.ts';
import type { AccessClass } from '../domain/principal.ts';
import { UsageError } from '../config.ts';
import { action, osUser, parseDuration, parseIdList, withDatabase } from './runtime.ts';

function tokenId(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`token id must be a positive integer, got "${text}"`);
  return n;
}

export function tokenCommands(program: Command) {
  const token = program.command('token').description('issue, list, revoke and rotate API tokens');

  token
    .command('create')
    .description('create a partner account with a token; the token is printed alone on the last line')
    .requiredOption('--class <class>', 'public, user, reseller or entry (scanner devices, needs --museums)')
    .requiredOption('--name <name>', 'partner name, e.g. "Travel Agency Ltd"')
    .option('--museums <ids>', 'comma list of museum ids the token is limited to (default: all)')
    .option('--rights <rights>', 'user tokens: e.g. orders:write,customers:read or "all" (default: all)')
    .option('--rate-limit <n>', 'reseller tokens: requests per minute (default: instance setting)')
    .option('--expires-in <duration>', 'e.g. 90d, 12h (default: no expiry)')
    .action(
      action(async (o: { class: string; name: string; museums?: string; rights?: string; rateLimit?: string; expiresIn?: string }) => {
        const input = {
          class: o.class as AccessClass,
          name: o.name,
          museumIds: o.museums ? parseIdList(o.museums, '--museums') : [],
          rights: o.rights ? o.rights.split(',') : o.class === 'user' ? ['all'] : [],
          ...(o.rateLimit ? { rateLimitPerMinute: Number(o.rateLimit) } : {}),
          ...(o.expiresIn ? { expiresIn: parseDuration(o.expiresIn) } : {}),
        };
        await withDatabase(async (ctx) => {
          const created = await auditedByOperator(ctx, osUser(), (tx) => createToken(tx, input), (r) => ({
            action: 'partner.create', entityType: 'account', entityId: r.accountId,
            after: { ...input, token_id: r.tokenId, token_last4: r.last4, expires_at: r.expiresAt?.toISOString() ?? null },
          }));
          process.stdout.write(
            `created ${input.class} token #${created.tokenId} for account #${created.accountId} "${input.name}"` +
              `${created.expiresAt ? `, expires ${created.expiresAt.toISOString()}` : ''}.\n` +
              'Store it on your server now: it is shown only once.\n' +
              `${created.token}\n`,
          );
        });
      }),
    );

  token
    .command('list')
    .description('list tokens (never the secret: only its last 4 characters)')
    .option('--json', 'machine-readable output')
    .action(
      action(async (o: { json?: boolean }) => {
        await withDatabase(async (ctx) => {
          const rows = await listTokens(ctx);
          if (o.json) {
            process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
            return;
          }
          if (rows.length === 0) {
            process.stdout.write('no tokens yet: atrium token create --class reseller --name "Partner"\n');
            return;
          }
          for (const r of rows) {
            const scope = r.museumIds.length ? `museums ${r.museumIds.join(',')}` : 'all museums';
            const rights = r.class === 'user' ? ` rights ${r.rights.join(',') || 'none'}` : '';
            const exp = r.expiresAt ? ` expires ${r.expiresAt.toISOString()}` : '';
            process.stdout.write(
              `#${r.id}\t${r.state}\t${r.class}\t…${r.last4}\taccount #${r.accountId} "${r.name}"\t${scope}${rights}${exp}\n`,
            );
          }
        });
      }),
    );

  token
    .command('revoke <id>')
    .description('revoke a token at once')
    .action(
      action(async (id: string) => {
        const tokenIdNum = tokenId(id);
        await withDatabase(async (ctx) => {
          await auditedByOperator(ctx, osUser(), (tx) => revokeToken(tx, { tokenId: tokenIdNum }), () => ({
            action: 'token.revoke', entityType: 'token', entityId: tokenIdNum,
          }));
          process.stdout.write(`token #${tokenIdNum} revoked\n`);
        });
      }),
    );

  token
    .command('rotate <id>')
    .description('issue a new token for the same account; the old one ends after --overlap')
    .option('--overlap <duration>', 'how long the old token keeps working, e.g. 24h (default: 0, ends now)')
    .option('--expires-in <duration>', 'expiry of the new token (default: none)')
    .action(
      action(async (id: string, o: { overlap?: string; expiresIn?: string }) => {
        const tokenIdNum = tokenId(id);
        await withDatabase(async (ctx) => {
          const input = {
            tokenId: tokenIdNum,
            overlapSeconds: o.overlap ? parseDuration(o.overlap) : 0,
            ...(o.expiresIn ? { expiresIn: parseDuration(o.expiresIn) } : {}),
          };
          const r = await auditedByOperator(ctx, osUser(), (tx) => rotateToken(tx, input), (r) => ({
            action: 'token.rotate', entityType: 'token', entityId: tokenIdNum,
            after: { account_id: r.accountId, new_token_id: r.tokenId, new_token_last4: r.last4, old_token_ends_at: r.oldTokenEndsAt.toISOString() },
          }));
          process.stdout.write(
            `token #${tokenIdNum} ends ${r.oldTokenEndsAt.toISOString()}; new token #${r.tokenId} for account #${r.accountId}.\n` +
              'Store it on your server now: it is shown only once.\n' +
              `${r.token}\n`,
          );
        });
      }),
    );
}
