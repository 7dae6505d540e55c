// GET /webhooks, GET|PATCH|DELETE /webhooks/:id: the caller's own endpoints. PATCH may re-enable
// an endpoint that delivery disabled (its reason is then cleared); DELETE keeps the row (its
// deliveries log refers to it) but stops every delivery at once.
import { deleteEndpoint, pageOfEndpoints, updateEndpoint } from '../../db/repositories/webhooks.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { checkInput, findEndpoint, ownerOf, view, type EndpointInput, type EndpointView } from './internal.ts';

export async function listWebhooks(ctx: Ctx, input: { page?: number; per_page?: number }) {
  const accountId = ownerOf(ctx);
  const page = input.page ?? 1;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { rows, total } = await pageOfEndpoints(ctx.db, accountId, { limit: perPage, offset: (page - 1) * perPage });
  return { webhooks: rows.map(view), total, page, perPage };
}

export async function getWebhook(ctx: Ctx, id: number): Promise<EndpointView> {
  return view(await findEndpoint(ctx.db, ctx, id));
}

export async function updateWebhook(ctx: Ctx, id: number, input: EndpointInput & { enabled?: boolean }): Promise<EndpointView> {
  await findEndpoint(ctx.db, ctx, id);
  await checkInput(ctx, input, false, 'webhook could not be saved');
  return transaction(ctx.db, async (tx) => {
    await findEndpoint(tx, ctx, id, true);
    const now = ctx.clock.now();
    const row = await updateEndpoint(tx, id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(input.description !== undefined ? { description: input.description?.trim() || null } : {}),
      ...(input.enabled === true ? { enabled: true, disabledReason: null, disabledAt: null } : {}),
      ...(input.enabled === false ? { enabled: false, disabledReason: 'disabled by the account', disabledAt: now } : {}),
      updatedAt: now,
    });
    return view(row);
  });
}

export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  await findEndpoint(ctx.db, ctx, id);
  const now = ctx.clock.now();
  await deleteEndpoint(ctx.db, id, now);
}
