// desk (cash or a card terminal at the box office) and invoice (a bank transfer): money taken
// outside Atrium and recorded by staff (POST /orders/:id/payments). There is no page and no
// notification; what is recorded is paid, and a refund is money handed or sent back by staff,
// recorded as done.
import type { PaymentProvider } from './types.ts';

export function offlineProvider(name: 'desk' | 'invoice'): PaymentProvider {
  return {
    name,
    hosted: false,
    async startCheckout() {
      throw new Error(`${name} payments are recorded by staff, not started online`);
    },
    async fetchStatus() {
      return { state: 'paid' };
    },
    async refund() {
      return { state: 'done' };
    },
    async parseWebhook() {
      return { ok: false, reason: `${name} has no notifications` };
    },
  };
}
