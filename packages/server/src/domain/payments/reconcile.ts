// The reconcile job (every minute): payments still open on a provider's page some minutes after
// they started are asked about again, so a lost or never-sent webhook costs a delay, not money.
// Refunds still pending after a few minutes are sent again under the same idempotency key: the
// process stopped between reserving and sending them, or the provider did not answer; a provider
// that already made the refund answers with it, so none is made twice.
import { openHostedPayments, pendingRefunds } from '../../db/repositories/payments.ts';
import type { Ctx } from '../context.ts';
import { confirmPayment } from './confirmPayment.ts';
import { executeRefund } from './refunds.ts';
import type { PaymentProviders } from './provider.ts';

/** Minutes a hosted payment may stay open before the job asks its provider. */
export const RECONCILE_AFTER_MINUTES = 3;
const BATCH = 100;

export async function reconcilePayments(ctx: Ctx, providers: PaymentProviders): Promise<{ asked: number; changed: number; errors: number }> {
  const before = new Date(ctx.clock.now().getTime() - RECONCILE_AFTER_MINUTES * 60_000);
  const open = await openHostedPayments(ctx.db, before, BATCH);
  let changed = 0;
  let errors = 0;
  for (const p of open) {
    if (!p.providerRef || !providers.get(p.provider)) continue;
    try {
      const r = await confirmPayment(ctx, providers, { paymentId: p.id }, 'reconcile');
      if (r.changed) changed += 1;
    } catch {
      // One provider's outage must not stop the others; the next run asks again.
      errors += 1;
    }
  }
  for (const r of await pendingRefunds(ctx.db, before, BATCH)) {
    try {
      if ((await executeRefund(ctx, providers, r, 'reconcile')).state !== 'pending') changed += 1;
    } catch {
      errors += 1;
    }
  }
  return { asked: open.length, changed, errors };
}
