// POST /webhooks: registers an endpoint of the caller's account. The signing secret is made here
// and returned this once (docs/webhooks.md); afterwards only its last 4 characters are shown.
import { countLiveEndpoints, insertEndpoint } from '../../db/repositories/webhooks.ts';
import { transaction } from '../../db/transaction.ts';
import { last4, newSecret, sealingKey, sealSecret } from './secrets.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { checkInput, MAX_ENDPOINTS, ownerOf, view, type EndpointInput, type EndpointView } from './internal.ts';

export async function createWebhook(ctx: Ctx, input: EndpointInput): Promise<{ webhook: EndpointView; secret: string }> {
  const accountId = ownerOf(ctx);
  await checkInput(ctx, input, true, 'webhook could not be saved');
  const secret = newSecret();
  const now = ctx.clock.now();
  const row = await transaction(ctx.db, async (tx) => {
    if ((await countLiveEndpoints(tx, accountId)) >= MAX_ENDPOINTS) throw invalid('webhook could not be saved', [`An account may have at most ${MAX_ENDPOINTS} webhooks`]);
    return insertEndpoint(tx, {
      accountId,
      url: input.url!,
      events: [...new Set(input.events!)],
      description: input.description?.trim() || null,
      secretEnc: sealSecret(secret, sealingKey(ctx.config)),
      secretLast4: last4(secret),
      createdAt: now,
      updatedAt: now,
    });
  });
  return { webhook: view(row), secret };
}
