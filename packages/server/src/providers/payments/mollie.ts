// Mollie hosted checkout through the official SDK. A Mollie payment (tr_…) is one attempt. Mollie's
// webhook is unsigned and carries only the payment's id, so it is only a trigger: the payment is
// fetched from Mollie and its status is what counts (a forged call changes nothing).
// MOLLIE_API_ENDPOINT points the SDK at a stand-in. The SDK speaks HTTPS only and trusts only its
// own bundled certificate authorities (it has no option to add one), so a stand-in must be HTTPS
// and its test process must accept its certificate (test/payments/support.ts).
import type { MollieClient } from '@mollie/api-client';
import type { PaymentSettings } from './settings.ts';
import type { PaymentProvider, ProviderStatus } from './types.ts';

const value = (cents: number) => (cents / 100).toFixed(2);
const cents = (v: string) => Math.round(Number(v) * 100);

export function mollieProvider(settings: PaymentSettings['mollie'], publicUrl: string | undefined): PaymentProvider {
  // The SDK is loaded with the first call that needs it, not with every server process.
  let client: Promise<MollieClient> | undefined;
  const sdk = () => (client ??= import('@mollie/api-client').then(({ createMollieClient }) => createMollieClient({
    apiKey: settings.apiKey!.reveal(),
    ...(settings.apiEndpoint ? { apiEndpoint: settings.apiEndpoint } : {}),
  })));
  const webhookUrl = publicUrl ? `${publicUrl}/api/v4/payments/mollie/webhook` : undefined;
  return {
    name: 'mollie',
    hosted: true,
    async startCheckout(order, amountCents, returnUrl, paymentId) {
      const p = await (await sdk()).payments.create({
        amount: { currency: order.currency, value: value(amountCents) },
        description: `Order ${order.id}`,
        redirectUrl: returnUrl,
        // Without a public address there is no webhook; the reconcile job asks instead.
        ...(webhookUrl ? { webhookUrl } : {}),
        metadata: { atrium_order_id: order.id, atrium_payment_id: paymentId },
        idempotencyKey: `atrium-payment-${paymentId}`,
      });
      const url = p.getCheckoutUrl();
      if (!url) throw new Error('Mollie returned a payment without a checkout URL');
      return { redirectUrl: url, providerRef: p.id };
    },
    async fetchStatus(ref): Promise<ProviderStatus> {
      const p = await (await sdk()).payments.get(ref);
      switch (p.status) {
        case 'paid':
          return { state: 'paid', amountCents: cents(p.amount.value), method: p.method ?? null };
        case 'failed':
          return { state: 'failed', failure: 'payment failed at Mollie' };
        case 'canceled':
          return { state: 'canceled', failure: 'canceled on the payment page' };
        case 'expired':
          return { state: 'canceled', failure: 'payment expired at Mollie' };
        default:
          return { state: 'pending' };
      }
    },
    async refund(ref, amountCents, idempotencyKey) {
      const p = await (await sdk()).payments.get(ref);
      let r;
      try {
        r = await (await sdk()).paymentRefunds.create({ paymentId: ref, amount: { currency: p.amount.currency, value: value(amountCents) }, idempotencyKey });
      } catch (err) {
        // Mollie answered and refused (4xx); anything else leaves the outcome unknown.
        const status = (err as { statusCode?: number }).statusCode;
        if (status !== undefined && status >= 400 && status < 500) return { state: 'failed', failure: (err as Error).message.slice(0, 200) };
        throw err;
      }
      if (r.status === 'failed' || r.status === 'canceled') return { state: 'failed', providerRef: r.id, failure: `refund ${r.status} at Mollie` };
      return { state: 'done', providerRef: r.id };
    },
    async parseWebhook(rawBody) {
      const id = new URLSearchParams(rawBody).get('id');
      if (!id || !/^tr_[A-Za-z0-9]{1,64}$/.test(id)) return { ok: false, reason: 'no Mollie payment id' };
      return { ok: true, providerRef: id };
    },
  };
}
