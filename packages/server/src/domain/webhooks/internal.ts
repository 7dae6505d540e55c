// Shared parts of the webhook endpoints area (docs/webhooks.md): whose endpoints a caller
// manages (its own account's: resellers always, user accounts with the webhooks right, checked
// by the routes), the stored row, and the checks every write runs.
import type { DbOrTx } from '../../db/client.ts';
import { liveEndpoint, type EndpointRow } from '../../db/repositories/webhooks.ts';
import { checkTarget, TargetRefused } from './targets.ts';
import type { Ctx } from '../context.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { EVENT_TYPES } from '../events/record.ts';

export type EndpointView = Omit<EndpointRow, 'secretEnc' | 'deletedAt'>;

/** Endpoints one account may have: each costs a delivery per event. */
export const MAX_ENDPOINTS = 20;

export function ownerOf(ctx: Ctx): number {
  const p = ctx.principal;
  if (p.kind !== 'account' || (p.access !== 'user' && p.access !== 'reseller')) throw forbidden('this token may not manage webhooks');
  return p.accountId;
}

export function view(row: EndpointRow): EndpointView {
  const { secretEnc: _s, deletedAt: _d, ...rest } = row;
  return rest;
}

export async function findEndpoint(db: DbOrTx, ctx: Ctx, id: number, forUpdate = false): Promise<EndpointRow> {
  const row = await liveEndpoint(db, ownerOf(ctx), id, forUpdate);
  if (!row) throw notFound('webhook');
  return row;
}

export interface EndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
}

/** Checks url (form, and every address it resolves to) and events; all problems in one 422. */
export async function checkInput(ctx: Ctx, input: EndpointInput, required: boolean, message: string): Promise<void> {
  const errors: string[] = [];
  if (input.url !== undefined || required) {
    try {
      await checkTarget(input.url as string, ctx.config.notify.webhooksAllowPrivate);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      errors.push(err.message);
    }
  }
  if (input.events !== undefined || required) {
    const evs = input.events ?? [];
    if (evs.length === 0) errors.push("Events can't be blank");
    for (const e of evs) if (!(EVENT_TYPES as readonly string[]).includes(e)) errors.push(`Events: unknown event "${String(e).slice(0, 60)}"`);
  }
  if (input.description != null && /[\u0000]/.test(input.description)) errors.push('Description is invalid');
  if (errors.length) throw invalid(message, errors);
}
