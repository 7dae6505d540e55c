// POST /webhooks: registers an endpoint of the caller's account. The signing secret is made here
// and returned this once (docs/webhooks.md); afterwards only its last 4 characters are shown.
import { and, count, eq, isNull } from 'drizzle-orm';
import { webhookEndpoints } from '../../db/schema/index.ts';
import { last4, newSecret, sealSecret, webhookKey } from '../../notify/webhooks/secrets.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { checkInput, MAX_ENDPOINTS, ownerOf, view, type EndpointInput, type EndpointView } from './internal.ts';

export async function createWebhook(ctx: Ctx, input: EndpointInput): Promise<{ webhook: EndpointView; secret: string }> {
  const accountId = ownerOf(ctx);
  await checkInput(ctx, input, true, 'webhook could not be saved');
  const secret = newSecret();
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [n] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.accountId, accountId), isNull(webhookEndpoints.deletedAt)));
    if ((n?.n ?? 0) >= MAX_ENDPOINTS) throw invalid('webhook could not be saved', [`An account may have at most ${MAX_ENDPOINTS} webhooks`]);
    const [r] = await tx
      .insert(webhookEndpoints)
      .values({
        accountId,
        url: input.url!,
        events: [...new Set(input.events!)],
        description: input.description?.trim() || null,
        secretEnc: sealSecret(secret, webhookKey(ctx.config)),
        secretLast4: last4(secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return r!;
  });
  return { webhook: view(row), secret };
}
