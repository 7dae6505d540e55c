// The demo provider (ATRIUM_DEMO only): a page served by Atrium itself, clearly marked, with a
// "pay" and a "fail" button, so that the demo install sells end to end without any money moving.
// Its state lives in this process's memory: a demo runs as one process.
import { randomBytes } from 'node:crypto';
import type { PaymentProvider, ProviderStatus } from './types.ts';

export interface DemoProvider extends PaymentProvider {
  /** The page's buttons: what the visitor chose, and where to send them back. */
  decide(ref: string, outcome: 'paid' | 'failed'): { returnUrl: string } | undefined;
  attempt(ref: string): { amountCents: number; currency: string; orderId: number; state: ProviderStatus['state'] } | undefined;
}

export function demoProvider(pageBase: string): DemoProvider {
  const attempts = new Map<string, { amountCents: number; currency: string; orderId: number; returnUrl: string; state: ProviderStatus['state'] }>();
  return {
    name: 'demo',
    hosted: true,
    async startCheckout(order, amountCents, returnUrl, paymentId) {
      const ref = `demo_${paymentId}_${randomBytes(6).toString('hex')}`;
      attempts.set(ref, { amountCents, currency: order.currency, orderId: order.id, returnUrl, state: 'pending' });
      return { providerRef: ref, redirectUrl: `${pageBase}/api/v4/payments/demo/${ref}` };
    },
    async fetchStatus(ref) {
      const a = attempts.get(ref);
      return a ? { state: a.state, amountCents: a.amountCents, method: 'demo' } : { state: 'canceled', failure: 'unknown demo payment (the process restarted)' };
    },
    async refund() {
      return { state: 'done' };
    },
    async parseWebhook() {
      return { ok: false, reason: 'the demo provider sends no notifications' };
    },
    decide(ref, outcome) {
      const a = attempts.get(ref);
      if (!a || a.state !== 'pending') return a ? { returnUrl: a.returnUrl } : undefined;
      a.state = outcome;
      return { returnUrl: a.returnUrl };
    },
    attempt(ref) {
      const a = attempts.get(ref);
      return a && { amountCents: a.amountCents, currency: a.currency, orderId: a.orderId, state: a.state };
    },
  };
}
