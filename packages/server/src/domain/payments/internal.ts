// Shared pieces of the payments verbs: who caused a change (for the audit log and created_by),
// the audit entry every state change writes, and the errors of this area.
import type { DbOrTx } from '../../db/client.ts';
import type { PaymentRow, RefundRow } from '../../db/repositories/payments.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { StaffCtx } from '../staff/principal.ts';
import type { PaymentProvider, PaymentProviders, ProviderName } from './provider.ts';

/** What made a payment change: a provider's notification, the visitor's return, the job, a caller. */
export type ChangeSource = 'provider-webhook' | 'return-url' | 'reconcile' | 'demo-page' | 'api' | 'cancellation' | 'closure' | 'late-payment';

/**
 * created_by / audit actor of a caller: `staff:<user id>` for a console user (the console's one
 * account says nothing about who acted), `account:<id>` for a token, `system` for jobs.
 */
export function callerOf(ctx: Ctx): string {
  const staff = (ctx as Partial<StaffCtx>).staff;
  if (staff) return `staff:${staff.id}`;
  return ctx.principal.kind === 'account' && ctx.principal.accountId !== 0 ? `account:${ctx.principal.accountId}` : 'system';
}

/** The actor written for a change: the caller, or the source when the system acts on a provider's word. */
export function actorOf(ctx: Ctx, source: ChangeSource): string {
  const caller = callerOf(ctx);
  return caller === 'system' ? source : caller;
}

export async function auditPayment(
  ctx: { db: DbOrTx; clock: Ctx['clock'] },
  actor: string,
  action: string,
  row: PaymentRow | RefundRow,
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): Promise<void> {
  await recordAudit(ctx, { system: actor }, {
    action,
    entityType: 'paymentId' in row ? 'refund' : 'payment',
    entityId: row.id,
    before,
    after,
  });
}

export function providerOf(providers: PaymentProviders, name: ProviderName): PaymentProvider {
  const p = providers.get(name);
  if (!p) throw new DomainError('PAYMENT_PROVIDER_UNAVAILABLE', `payment provider "${name}" is not enabled on this instance`);
  return p;
}

export const refundTooLarge = (availableCents: number) =>
  new DomainError('REFUND_EXCEEDS_PAID', `refund exceeds what was paid and not yet refunded (${availableCents} cents)`);

/** The provider's error as a short text without values that could identify anyone. */
export function failureText(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s+/g, ' ').slice(0, 200) || 'provider error';
}
